"""Drawings made from a board config, so they always match what the firmware reads.

- wiring_svg(board): a block diagram: the microcontroller with every pin the
  config uses, the level shifter, the multiplexers (or HX711s) with one wire
  per channel to its pit, the buttons, and the board seen from above with the
  LED chain in order.
- drilling_svg(board, underside=False): a 1:1 template in millimetres with
  every pit (labelled with its canonical index), store, sensor pocket and LED
  hole.  The underside version is the mirror image, for drilling the pockets
  from below.

`board` is what boardconfig.load_board() returns.  Every drawn part carries
data attributes (data-cell, data-led, data-from/data-to on wires) so tests and
tools can check the drawing against the config.  Plain string building: no
dependencies.
"""
import math

from sowlight.terminal import harmless

_FONT = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""
_MUX_COLOURS = ("#1f5fbf", "#2e8b3a", "#c76a00", "#8e3cb0", "#a0522d", "#008b8b", "#b22222", "#556b2f")


def _esc(text):
    # harmless first: XML allows no control characters, and a drawing's text is shown too.
    return harmless.text(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _n(x):
    """A coordinate, short: 12.0 -> 12, 12.3456 -> 12.35."""
    text = "%.2f" % x
    return text.rstrip("0").rstrip(".") if "." in text else text


def cell_name(board, cell):
    return "pit %d" % cell if cell < board.pits else "store %d" % (cell - board.pits)


def cell_label(board, cell):
    return "%d" % cell if cell < board.pits else "S%d" % (cell - board.pits)


def pin_name(board, pin):
    return ("GP%d" if board.mcu == "rp2040" else "GPIO%d") % pin


# -- where things are on the board (mm, seen from above, player 0 at the bottom) --

class Geometry:
    """Positions in mm on the board seen from above: x to player 0's right,
    y downwards (SVG), player 0 sitting at the bottom edge."""

    def __init__(self, board):
        lay = board.layout
        self.board = board
        n, rows = board.pits_per_row, board.rows
        self.d = float(lay["pit_diameter_mm"])
        pitch = float(lay["pit_pitch_mm"])
        row_pitch = float(lay["row_pitch_mm"])
        gap = float(lay["centre_gap_mm"])
        margin = float(lay["margin_mm"])
        self.store_w = float(lay["store_width_mm"])
        self.store_l = float(lay["store_length_mm"])
        wall = pitch - self.d
        self.led_hole = float(lay["led_hole_mm"])
        self.led_offset = float(lay["led_offset_mm"])
        self.pocket = float(lay["sensor_pocket_mm"])
        self.window = float(lay["sensor_window_mm"])
        x0 = margin + (self.store_w + wall if board.stores else 0.0)
        self.length = 2 * margin + n * pitch + (2 * (self.store_w + wall) if board.stores else 0.0)
        self.width = 2 * margin + rows * row_pitch + gap
        self.centre = {}   # cell -> (x, y)
        self.row_of = {}   # pit -> row from player 0's side
        for row in range(rows):
            y = self.width - margin - (row + 0.5) * row_pitch - (gap if row >= rows // 2 else 0.0)
            for column in range(n):
                cell = canonical_pit(rows, n, row, column)
                self.centre[cell] = (x0 + (column + 0.5) * pitch, y)
                self.row_of[cell] = row
        if board.stores:
            half = rows // 2
            for player in (0, 1):
                ys = [self.width - margin - (r + 0.5) * row_pitch - (gap if r >= half else 0.0)
                      for r in (range(half) if (player == 0 or rows == 2) else range(half, rows))]
                if rows == 2:
                    ys = [self.width / 2.0]
                y = sum(ys) / len(ys)
                # Player 0's store is on its right (east), player 1's on the west.
                x = x0 + n * pitch + wall / 2 + self.store_w / 2 if player == 0 else margin + wall / 2 + self.store_w / 2
                self.centre[board.pits + player] = (x, y)
        self.leds = {}     # LED index -> (x, y, cell)
        self.away = {}     # cell -> unit vector pointing away from its first LED (where its label goes)
        for cell in range(board.cells):
            indices = board.cell_leds[cell]
            x, y = self.centre[cell]
            if cell < board.pits:
                # Towards the board's centre line: that side of the pit faces its owner.
                base = -90.0 if self.row_of[cell] < rows / 2.0 else 90.0
            else:
                base = 180.0 if cell == board.pits else 0.0  # towards the pits
            self.away[cell] = (-math.cos(math.radians(base)), -math.sin(math.radians(base)))
            for k, index in enumerate(indices):
                angle = math.radians(base + 360.0 * k / len(indices))
                self.leds[index] = (x + self.led_offset * math.cos(angle), y + self.led_offset * math.sin(angle), cell)


def canonical_pit(rows, n, row, column):
    """Canonical pit index at `row` (0 = nearest player 0) and `column` (0 = player 0's left).
    docs/config.md, Canonical numbering."""
    if rows == 2:
        return column if row == 0 else 2 * n - 1 - column
    return (column, 2 * n - 1 - column, 3 * n + column, 3 * n - 1 - column)[row]


# -- the drilling template ---------------------------------------------------------

def drilling_svg(board, underside=False):
    geo = Geometry(board)
    L, W = geo.length, geo.width
    extra = 36.0  # room under the board for the scale bar and notes

    def at(x, y):
        # The underside, seen after turning the board over about its long edge.
        return (x, W - y) if underside else (x, y)

    out = []
    view = "underside (mirror image: board turned over about its long edge)" if underside else "top"
    out.append('<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" viewBox="0 0 %s %s" data-view="%s">'
               % (_n(L), _n(W + extra), _n(L), _n(W + extra), "underside" if underside else "top"))
    out.append("<title>%s: drilling template, %s, 1:1</title>" % (_esc(board.name), view))
    out.append('<rect id="outline" x="0" y="0" width="%s" height="%s" fill="none" stroke="#000" stroke-width="0.4"/>' % (_n(L), _n(W)))
    pit_style = 'fill="none" stroke="#000" stroke-width="0.35"%s' % (' stroke-dasharray="2 1.5"' if underside else "")
    for cell in range(board.cells):
        x, y = at(*geo.centre[cell])
        kind = "pit" if cell < board.pits else "store"
        out.append('<g id="%s-%d" class="%s" data-cell="%d">' % (kind, cell, kind, cell))
        if kind == "pit":
            out.append('<circle cx="%s" cy="%s" r="%s" %s/>' % (_n(x), _n(y), _n(geo.d / 2), pit_style))
        else:
            w, h = geo.store_w, geo.store_l
            out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="%s" %s/>'
                       % (_n(x - w / 2), _n(y - h / 2), _n(w), _n(h), _n(w / 2), pit_style))
        out.append(_cross(x, y, 3.0))
        if board.cell_sensors[cell] is not None:
            # From below: the pocket the sensor sits in; from above: the window it looks through.
            size = geo.pocket if underside else geo.window
            out.append('<circle class="sensor" data-cell="%d" cx="%s" cy="%s" r="%s" fill="none" stroke="#1f5fbf" stroke-width="0.3"/>'
                       % (cell, _n(x), _n(y), _n(size / 2)))
        ax, ay = geo.away[cell]
        if underside:
            ay = -ay
        reach = geo.d * 0.3 if kind == "pit" else geo.store_w * 0.3
        out.append('<text x="%s" y="%s" font-size="6" text-anchor="middle" %s>%s</text>'
                   % (_n(x + ax * reach), _n(y + ay * reach + 2.1), _FONT, cell_label(board, cell)))
        out.append("</g>")
    for index in sorted(geo.leds):
        lx, ly, cell = geo.leds[index]
        x, y = at(lx, ly)
        out.append('<g id="led-%d" class="led" data-led="%d" data-cell="%d">' % (index, index, cell))
        out.append('<circle cx="%s" cy="%s" r="%s" fill="none" stroke="#c0392b" stroke-width="0.3"/>' % (_n(x), _n(y), _n(geo.led_hole / 2)))
        out.append(_cross(x, y, 1.5, "#c0392b"))
        out.append('<text x="%s" y="%s" font-size="3" fill="#c0392b" %s>L%d</text>'
                   % (_n(x + geo.led_hole / 2 + 0.8), _n(y + 1), _FONT, index))
        out.append("</g>")
    # Scale bar: measure it after printing; it must be exactly 100 mm.
    y = W + 10.0
    out.append('<g id="scale"><path d="M 10 %s h 100 M 10 %s v 4 M 110 %s v 4" stroke="#000" stroke-width="0.4" fill="none"/>'
               % (_n(y), _n(y - 2), _n(y - 2)))
    out.append('<text x="60" y="%s" font-size="4" text-anchor="middle" %s>100 mm: check with a ruler after printing at 100 %%</text></g>'
               % (_n(y + 6), _FONT))
    if underside:
        note = ("Underside (player 0's edge at the top): red LED holes %g mm, stop 1.5-2 mm under the pit; "
                "blue sensor pockets %g mm, stop 3 mm under the pit floor." % (geo.led_hole, geo.pocket))
    else:
        note = ("Top (player 0 at the bottom): pits %g mm, canonical numbers (docs/config.md); "
                "blue: %g mm sensor windows through the pit floor; red: LED holes below." % (geo.d, geo.window))
    out.append('<text x="%s" y="%s" font-size="3.5" %s>%s</text>' % (_n(min(125.0, L / 2)), _n(y + 1), _FONT, _esc(note)))
    out.append('<text x="%s" y="%s" font-size="3.5" %s>%s</text>'
               % (_n(min(125.0, L / 2)), _n(y + 7), _FONT, _esc("%s, board %g x %g mm" % (board.name, L, W))))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cross(x, y, size, colour="#000"):
    return ('<path d="M %s %s h %s M %s %s v %s" stroke="%s" stroke-width="0.2" fill="none"/>'
            % (_n(x - size), _n(y), _n(2 * size), _n(x), _n(y - size), _n(2 * size), colour))


# -- the wiring diagram ------------------------------------------------------------

class _Wiring:
    """Builds the wiring diagram: blocks on the left and middle, the board on the right."""

    ROW = 16.0       # one pin or channel row, px

    def __init__(self, board):
        self.board = board
        self.out = []
        self.wires = []
        self.pin_y = {}     # pin -> y of its row on the MCU block
        self.ports = {}     # endpoint name -> (x, y)
        self.lane_x = {}    # "mcu:<pin>" -> x of its vertical lane
        self.lane_used = set()

    def wire(self, a, b, colour, points=None, width=1.2):
        """A wire between two named endpoints, drawn as a polyline.  Wires to
        a microcontroller pin run down that pin's own vertical lane, so two
        signals never share a line; a dot marks where one pin feeds several."""
        if points is None:
            (x1, y1), (x2, y2) = self.ports[a], self.ports[b]
            pin = a if a.startswith("mcu:") else b
            lane = self.lane_x.get(pin, (x1 + x2) / 2.0)
            points = [(x1, y1), (lane, y1), (lane, y2), (x2, y2)]
            if pin in self.lane_used:
                self.wires.append('<circle cx="%s" cy="%s" r="2.2" fill="%s"/>' % (_n(lane), _n(self.ports[pin][1]), colour))
            self.lane_used.add(pin)
        d = "M " + " L ".join("%s %s" % (_n(x), _n(y)) for x, y in points)
        self.wires.append('<path class="wire" data-from="%s" data-to="%s" d="%s" stroke="%s" stroke-width="%s" fill="none"/>'
                          % (a, b, d, colour, _n(width)))

    def box(self, x, y, w, h, title, ident, fill="#f4f4f4"):
        self.out.append('<g id="%s"><rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="#333" stroke-width="1" rx="4"/>'
                        % (ident, _n(x), _n(y), _n(w), _n(h), fill))
        self.out.append('<text x="%s" y="%s" font-size="12" font-weight="bold" %s>%s</text></g>'
                        % (_n(x + 6), _n(y + 15), _FONT, _esc(title)))

    def text(self, x, y, s, size=10, anchor="start", colour="#000"):
        self.out.append('<text x="%s" y="%s" font-size="%s" text-anchor="%s" fill="%s" %s>%s</text>'
                        % (_n(x), _n(y), _n(size), anchor, colour, _FONT, _esc(s)))

    def build(self):
        board = self.board
        pins = self.pin_uses()
        # The microcontroller: one row per pin the config uses, in pin order.
        mcu_x, mcu_w, top = 20.0, 210.0, 60.0
        mcu_h = 30 + self.ROW * len(pins) + 10
        title = "Raspberry Pi Pico (RP2040)" if board.mcu == "rp2040" else "ESP32 DevKitC"
        self.box(mcu_x, top, mcu_w, mcu_h, title, "mcu")
        mid_x, mid_w = 370.0, 170.0
        lane_step = min(8.0, (mid_x - mcu_x - mcu_w - 20) / max(1, len(pins)))
        for k, (pin, use) in enumerate(sorted(pins.items())):
            y = top + 34 + k * self.ROW
            self.pin_y[pin] = y
            self.ports["mcu:%d" % pin] = (mcu_x + mcu_w, y - 3)
            # The top pin gets the rightmost lane: wires then fan out without crossing.
            self.lane_x["mcu:%d" % pin] = mcu_x + mcu_w + 10 + (len(pins) - 1 - k) * lane_step
            self.text(mcu_x + 8, y, "%s  %s" % (pin_name(board, pin), use), 10)
        # The middle column: level shifter, emitter switch, multiplexers or HX711s, buttons.
        y = top
        y = self.level_shifter(mid_x, y, mid_w) + 14
        if board.sensor_kind == "occupancy-mux":
            if board.emitter_pin is not None:
                y = self.emitter_switch(mid_x, y, mid_w) + 14
            for m in range(len(board.mux_list)):
                y = self.mux(mid_x, y, mid_w, m) + 14
        elif board.sensor_kind == "hx711":
            y = self.hx711s(mid_x, y, mid_w) + 14
        y = self.buttons(mid_x, y, mid_w) + 14
        bottom = max(y, top + mcu_h + 14)
        # The board, seen from above.
        board_bottom = self.board_view(600.0, top, 620.0)
        self.sensor_wires()
        self.led_wires()
        height = max(bottom, board_bottom) + 110
        self.power_notes(20.0, max(bottom, board_bottom) + 20)
        head = ['<svg xmlns="http://www.w3.org/2000/svg" width="1260" height="%s" viewBox="0 0 1260 %s">' % (_n(height), _n(height)),
                "<title>%s: wiring</title>" % _esc(board.name),
                '<rect x="0" y="0" width="1260" height="%s" fill="#fff"/>' % _n(height),
                '<text x="20" y="32" font-size="18" font-weight="bold" %s>%s: wiring</text>' % (_FONT, _esc(board.name)),
                '<text x="20" y="50" font-size="11" %s>Generated from the board config; pits use the canonical numbering of docs/config.md. '
                'Every pin on the left is one wire.</text>' % _FONT]
        return "\n".join(head + self.out + self.wires + ["</svg>"]) + "\n"

    def pin_uses(self):
        board = self.board
        pins = {board.led_pin: "LED data"}
        if board.sensor_kind == "occupancy-mux":
            for k, p in enumerate(board.mux_select):
                pins[p] = "mux select S%d" % k
            for m, (adc, enable) in enumerate(board.mux_list):
                if adc in pins:
                    pins[adc] += " + mux %d" % m   # muxes sharing an ADC pin through their enables
                else:
                    pins[adc] = "mux %d SIG (ADC)" % m
                if enable is not None:
                    pins[enable] = "mux %d enable" % m
            if board.emitter_pin is not None:
                pins[board.emitter_pin] = "IR emitters on/off"
        elif board.sensor_kind == "hx711":
            pins[board.hx711_sck] = "HX711 clock (all)"
            for cell, p in enumerate(board.cell_sensors):
                if p is not None:
                    pins[p] = "HX711 data, %s" % cell_name(board, cell)
        else:
            for cell, p in enumerate(board.cell_sensors):
                if p is not None:
                    pins[p] = "sensor, %s" % cell_name(board, cell)
        for role, p in board.buttons.items():
            pins[p] = "button: %s" % role
        return pins

    def level_shifter(self, x, y, w):
        board = self.board
        shifter = board.raw["leds"].get("level_shifter")
        h = 62.0
        self.box(x, y, w, h, shifter or "no level shifter", "shifter", "#fdecea")
        self.text(x + 8, y + 32, "1A in  (3.3 V data)", 9)
        self.text(x + 8, y + 50, "1Y out (5 V) via 330 Ω", 9)
        self.ports["shifter:1A"] = (x, y + 29)
        self.ports["shifter:1Y"] = (x + w, y + 47)
        if shifter:
            self.wire("mcu:%d" % board.led_pin, "shifter:1A", "#c0392b", width=1.6)
        else:
            self.ports["shifter:1Y"] = self.ports["mcu:%d" % board.led_pin]
        return y + h

    def emitter_switch(self, x, y, w):
        h = 44.0
        self.box(x, y, w, h, "IR emitter switch", "emitter")
        self.text(x + 8, y + 33, "gate: N-MOSFET / NPN, low side", 9)
        self.ports["emitter:gate"] = (x, y + 30)
        self.wire("mcu:%d" % self.board.emitter_pin, "emitter:gate", "#555")
        return y + h

    def mux(self, x, y, w, m):
        board = self.board
        colour = _MUX_COLOURS[m % len(_MUX_COLOURS)]
        adc, enable = board.mux_list[m]
        h = 30 + 5 * self.ROW + 16 * self.ROW * 0.8 + 6
        self.box(x, y, w, h, "CD74HC4067 mux %d" % m, "mux%d" % m, "#eef3fb")
        row = y + 32
        for k, p in enumerate(board.mux_select):
            self.ports["mux%d:S%d" % (m, k)] = (x, row - 3)
            self.text(x + 8, row, "S%d" % k, 9)
            self.wire("mcu:%d" % p, "mux%d:S%d" % (m, k), "#333", width=0.8)
            row += self.ROW
        self.ports["mux%d:SIG" % m] = (x, row - 3)
        self.text(x + 8, row, "SIG → %s" % pin_name(board, adc), 9)
        self.wire("mux%d:SIG" % m, "mcu:%d" % adc, colour, width=1.6)
        row += self.ROW
        self.ports["mux%d:EN" % m] = (x, row - 3)
        if enable is not None:
            self.text(x + 8, row, "EN ← %s" % pin_name(board, enable), 9)
            self.wire("mcu:%d" % enable, "mux%d:EN" % m, "#333", width=0.8)
        else:
            self.text(x + 8, row, "EN → GND (always on)", 9)
        row += self.ROW
        cells = dict((ch[1], cell) for cell, ch in enumerate(board.cell_sensors) if ch is not None and ch[0] == m)
        step = self.ROW * 0.8
        for channel in range(16):
            cy = row + channel * step
            label = "C%d → %s" % (channel, cell_name(board, cells[channel])) if channel in cells else "C%d  (spare: GND)" % channel
            self.text(x + 70, cy, label, 8, colour=colour if channel in cells else "#999")
            self.ports["mux%d:C%d" % (m, channel)] = (x + w, cy - 3)
        return y + h

    def hx711s(self, x, y, w):
        board = self.board
        row_h = 22.0
        sensed = [cell for cell in range(board.cells) if board.cell_sensors[cell] is not None]
        h = 24 + row_h * len(sensed)
        self.box(x, y, w, h, "HX711 per cell (clocks shared)", "hx711", "#eef3fb")
        for k, cell in enumerate(sensed):
            cy = y + 36 + k * row_h
            name = "hx711-%d" % cell
            self.text(x + 8, cy, "%s: SCK, DOUT" % cell_name(board, cell), 9)
            self.ports[name + ":SCK"] = (x, cy - 6)
            self.ports[name + ":DOUT"] = (x, cy)
            self.ports[name + ":A"] = (x + w, cy - 3)
            self.wire("mcu:%d" % board.hx711_sck, name + ":SCK", "#333", width=0.6)
            self.wire(name + ":DOUT", "mcu:%d" % board.cell_sensors[cell], _MUX_COLOURS[0], width=0.9)
        return y + h

    def buttons(self, x, y, w):
        board = self.board
        h = 24 + 4 * self.ROW + 4
        pull = "internal pull-up, button to GND" if board.buttons_active_low else "button to 3.3 V"
        self.box(x, y, w, h, "Buttons (%s)" % ("active low" if board.buttons_active_low else "active high"), "buttons", "#f3eefb")
        for k, role in enumerate(("confirm", "undo", "hint")):
            cy = y + 36 + k * self.ROW
            self.ports["button:%s" % role] = (x, cy - 3)
            self.text(x + 8, cy, role + (" (hold: menu)" if role == "confirm" else ""), 9)
            self.wire("mcu:%d" % board.buttons[role], "button:%s" % role, "#8e3cb0")
        self.text(x + 8, y + h - 4, pull, 8, colour="#555")
        return y + h

    def board_view(self, x, y, w):
        board = self.board
        geo = Geometry(board)
        scale = w / geo.length
        self.view = (x, y, scale)
        h = geo.width * scale
        self.out.append('<g id="board"><rect x="%s" y="%s" width="%s" height="%s" fill="#f7ead2" stroke="#8b5a2b" stroke-width="1.5" rx="10"/>'
                        % (_n(x), _n(y), _n(w), _n(h)))
        self.text(x + w / 2, y + h + 16, "player 0 sits here (board seen from above)", 10, "middle")
        self.text(x + w / 2, y - 6, "player 1", 10, "middle")
        for cell in range(board.cells):
            cx, cy = geo.centre[cell]
            px, py = x + cx * scale, y + cy * scale
            kind = "pit" if cell < board.pits else "store"
            self.out.append('<g class="%s" data-cell="%d">' % (kind, cell))
            if kind == "pit":
                self.out.append('<circle cx="%s" cy="%s" r="%s" fill="#e8d2a8" stroke="#8b5a2b"/>' % (_n(px), _n(py), _n(geo.d / 2 * scale)))
            else:
                sw, sl = geo.store_w * scale, geo.store_l * scale
                self.out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="#e8d2a8" stroke="#8b5a2b"/>'
                                % (_n(px - sw / 2), _n(py - sl / 2), _n(sw), _n(sl), _n(sw / 2)))
            ax, ay = geo.away[cell]
            reach = (geo.d if kind == "pit" else geo.store_w) * scale * 0.3
            self.text(px + ax * reach, py + ay * reach + 4, cell_label(board, cell), 10, "middle")
            if board.cell_sensors[cell] is not None:
                self.out.append('<circle class="sensor" data-cell="%d" cx="%s" cy="%s" r="3" fill="#1f5fbf"/>' % (cell, _n(px), _n(py)))
                self.ports["sensor:%d" % cell] = (px, py)
            self.out.append("</g>")
        for index in sorted(geo.leds):
            lx, ly, cell = geo.leds[index]
            px, py = x + lx * scale, y + ly * scale
            self.ports["led:%d" % index] = (px, py)
            self.out.append('<g class="led" data-led="%d" data-cell="%d"><rect x="%s" y="%s" width="8" height="8" fill="#c0392b"/>'
                            '<text x="%s" y="%s" font-size="8" fill="#c0392b" %s>%d</text></g>'
                            % (index, cell, _n(px - 4), _n(py - 4), _n(px + 5), _n(py - 5), _FONT, index))
        self.out.append("</g>")
        return y + h + 24

    def sensor_wires(self):
        board = self.board
        for cell, sensor in enumerate(board.cell_sensors):
            if sensor is None:
                continue
            end = "sensor:%d" % cell
            if board.sensor_kind == "occupancy-mux":
                m, channel = sensor
                start = "mux%d:C%d" % (m, channel)
                colour = _MUX_COLOURS[m % len(_MUX_COLOURS)]
            elif board.sensor_kind == "hx711":
                start = "hx711-%d:A" % cell
                colour = _MUX_COLOURS[0]
            else:
                start = "mcu:%d" % sensor
                colour = _MUX_COLOURS[0]
                self.wire(end, start, colour, [self.ports[end], self.ports[start]], width=0.8)
                continue
            self.wire(start, end, colour, [self.ports[start], self.ports[end]], width=0.8)

    def led_wires(self):
        board = self.board
        colour = "#c0392b"
        self.wire("shifter:1Y", "led:0", colour, [self.ports["shifter:1Y"], self.ports["led:0"]], width=1.6)
        for index in range(board.led_count - 1):
            a, b = "led:%d" % index, "led:%d" % (index + 1)
            if a in self.ports and b in self.ports:
                self.wire(a, b, colour, [self.ports[a], self.ports[b]], width=1.6)

    def power_notes(self, x, y):
        board = self.board
        five_volt, three_volt = {
            "occupancy-mux": ("the 74AHCT125 and the IR emitters",
                              "the multiplexers and the phototransistors, never 5 V: the ADC pins take at most 3.3 V."),
            "hx711": ("the 74AHCT125 and the HX711s' VCC (load-cell excitation)",
                      "the HX711s' VDD (logic), so their DOUT stays at 3.3 V."),
            "gpio": ("the 74AHCT125", "the sensor modules, so their outputs stay at 3.3 V."),
        }[board.sensor_kind]
        source = ("USB VBUS" if board.supply_ma <= 500 else
                  "external 5 V %g A supply; the microcontroller's VSYS/5V pin through a Schottky diode" % (board.supply_ma / 1000.0))
        lines = [
            "Power: 5 V rail (%s) feeds the LED chain, %s; 1000 µF across it at the first LED." % (source, five_volt),
            "3.3 V (3V3 OUT) feeds " + three_volt,
            "100 nF across every IC's supply pins; join all grounds. LEDs: worst case %d mA at brightness cap %.2f (supply %d mA)."
            % (board.worst_ma, board.brightness_cap, board.supply_ma),
            "LED chain: data enters LED 0 and runs in index order; LED n lights the cell labelled next to it.",
        ]
        for k, line in enumerate(lines):
            self.text(x, y + 14 + k * 16, line, 11)


def wiring_svg(board):
    return _Wiring(board).build()


def all_drawings(board):
    """{suffix: svg text}: "wiring", "drill-top", "drill-under"."""
    return {
        "wiring": wiring_svg(board),
        "drill-top": drilling_svg(board),
        "drill-under": drilling_svg(board, underside=True),
    }
