"""The setup sheet's QR code: ``companion:VARIANT:SEED:OPTIONS:DEALVERSION`` (SEED is
``pysolN`` on the sheet of PySolFC's game N)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SheetCode:
    variant: str
    seed: int | None
    options: dict
    deal_version: int | None
    text: str
    pysol: int | None = None

    def describe(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        seed = (f", seed {self.seed}" if self.seed is not None else
                f", PySolFC game {self.pysol}" if self.pysol is not None else "")
        return f"{self.variant}{seed}" + (f" ({opts})" if opts else "")


def parse_sheet_code(text: str) -> SheetCode | None:
    """The fields of a sheet's QR text, or None when it is not one of ours."""
    parts = text.strip().split(":")
    if len(parts) != 5 or parts[0] != "companion" or not parts[1]:
        return None
    pysol = None
    try:
        if parts[2].startswith("pysol"):
            seed, pysol = None, int(parts[2].removeprefix("pysol"))
        else:
            seed = int(parts[2]) if parts[2] not in ("", "None") else None
        dv = int(parts[4]) if parts[4] else None
    except ValueError:
        return None
    options = {}
    for item in filter(None, parts[3].split(",")):
        k, sep, v = item.partition("=")
        if not sep:
            return None
        options[k] = v
    return SheetCode(parts[1], seed, options, dv, text.strip(), pysol)


def find_sheet_code(rgb) -> SheetCode | None:
    """Look for a companion QR code in the photo (at full and reduced scale)."""
    import cv2
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    det = cv2.QRCodeDetector()
    h, w = gray.shape
    for k in (1.0, 0.5, 0.25):
        img = gray if k == 1.0 else cv2.resize(gray, (max(1, int(w * k)), max(1, int(h * k))),
                                               interpolation=cv2.INTER_AREA)
        if min(img.shape) < 60:
            break
        try:
            text, _, _ = det.detectAndDecode(img)
        except cv2.error:
            text = ""
        if text:
            code = parse_sheet_code(text)
            if code is not None:
                return code
    return None
