"""What the companion shows in a terminal: text made harmless to print (`harmless`), boards and
moves drawn as text (`render`), the full-screen game view (`screen`) and progress lines
(`progress`)."""
