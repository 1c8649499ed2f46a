"""Clubs and remote play over an MQTT broker (docs/broadcast.md).

    broker.py          the broker: URL, login, TLS, staying connected (paho-mqtt)
    topics.py          the topic tree of an event and of a remote game's table
    publisher.py       one board's journal published to an event
    feed.py            an event's games rebuilt from the topics (viewers, the web view)
    broadcast_cli.py   `sowlight broadcast`
    remote.py          remote play: two boards, one game, through the broker
    remote_cli.py      `sowlight play --remote URL --seat N`
"""
