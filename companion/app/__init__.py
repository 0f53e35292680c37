"""The application layer: what the commands do with the packages below it (issue #48, part 4).

:mod:`.photo` turns a photo into a position, or into cards for the recorder; :mod:`.verify`
checks a dealt layout against a seeded deal, typed, as a JSON position or photographed.
"""
