"""The application layer: what the commands do with the packages below it (issue #48, part 4).

:mod:`.photo` turns a photo into a position, or into cards for the recorder; :mod:`.verify`
checks a dealt layout against a seeded deal, typed, as a JSON position or photographed;
:mod:`.hint` asks the solver for a hint; :mod:`.session` is the recorder's
:class:`~companion.record.session.Recorder` with the board, the hint and ``scan`` plugged in:
the ``Session`` the commands build.
"""
