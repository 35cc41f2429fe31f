"""The site in headless Chromium, as a reader sees it.

One layer serves every browser test of the suite (tests/conftest.py registers its
fixtures): `guard.py` refuses and records each request that leaves localhost, for every
context the `browser` fixture opens; `tab.py` is a reader's tab that records what a
reader should never see, with the math checks; `snapshots.py` visits each page once per
viewport (a 360 px phone, a 1280 px desktop; the desktop visit in both palettes) and
records what the read-only tests read. Tests that navigate, scroll, type or tap keep a
page of their own.
"""
