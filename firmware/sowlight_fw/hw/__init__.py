"""The board's hardware, behind the small interfaces the app uses (tests and the virtual board
hand in fakes with the same ones).

leds.py         the LED strip: micropython-lib neopixel, or Adafruit's CircuitPython NeoPixel
buttons.py      debounced buttons and the long press
sensors.py      the config's kind of pit sensor, made at boot: mux.py (analog sensors through
                multiplexers; muxrp2.py their pass in viper code on an RP2040), hx711.py (load
                cells; hx711rp2.py their bits clocked out in viper code), gpio.py (digital
                sensors); calibration.py their calibration values, guarded.py the flag that
                keeps watch.py off pins a scan is reading, and the scan's readings handed to it
watch.py        the sensors read in a timer's interrupt between scans: a cell that changes is
                lit at once
"""
