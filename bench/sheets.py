"""Setup-sheet speed and size: one booklet with a sheet of every variant.

Renders seed 1 of every variant into one PDF (two pages a sheet: setup and play), a few times,
and reports the best time, the time per sheet, and the size per page. The targets from the issue
are flagged, not asserted: at most 5 s for the whole booklet and 100 KB a page. Also shows the
largest single-sheet PDF (the variant whose setup page is heaviest).

    python bench/sheets.py [--repeat 3] [--paper a4|letter] [--mono]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from companion.render.pdf import render_sheets
from companion.rules import deal, variant_keys

TARGET_S = 5.0
TARGET_KB_PER_PAGE = 100.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="renders; the best is reported")
    parser.add_argument("--paper", default="a4", choices=("a4", "letter"))
    parser.add_argument("--mono", action="store_true")
    args = parser.parse_args(argv)

    keys = variant_keys()
    best = float("inf")
    data = b""
    for _ in range(max(1, args.repeat)):
        start = time.perf_counter()
        positions = [deal(k, 1) for k in keys]
        data = render_sheets(positions, paper=args.paper, mono=args.mono, date="2000-01-01")
        best = min(best, time.perf_counter() - start)
    pages = 2 * len(keys)
    kb = len(data) / 1024
    heaviest = max((len(render_sheets([deal(k, 1)], date="2000-01-01", play_page=False)), k)
                    for k in keys)

    print(f"setup sheets ({platform.python_implementation()} {platform.python_version()}, "
          f"{args.paper}{', mono' if args.mono else ''})")
    print(f"  booklet, {len(keys)} variants, {pages} pages: {best:.2f} s "
          f"({best / len(keys) * 1000:.0f} ms a sheet)  target <= {TARGET_S:g} s  "
          f"{'ok' if best <= TARGET_S else 'SLOW'}")
    print(f"  size: {kb:.0f} KB, {kb / pages:.1f} KB a page  target <= {TARGET_KB_PER_PAGE:g} "
          f"KB a page  {'ok' if kb / pages <= TARGET_KB_PER_PAGE else 'BIG'}")
    print(f"  heaviest single setup page: {heaviest[1]}, {heaviest[0] / 1024:.0f} KB as a "
          f"one-page PDF (fonts included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
