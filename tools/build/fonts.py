"""The web fonts: copied from their npm packages with their licences, and read back from the
page's critical CSS for the worker."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tools.build.sources import ROOT

# Web fonts (SIL Open Font License) from the @fontsource packages pinned in package.json.
FONTS = {
    "fredoka": ("fredoka-latin-700-normal.woff2",),
    "nunito": ("nunito-latin-400-normal.woff2", "nunito-latin-700-normal.woff2"),
}
FONT_FACE = re.compile(
    r'@font-face\{font-family:"(?P<family>[^"]+)";font-weight:(?P<weight>\d+);[^}]*'
    r'src:url\("(?P<url>[^"]+)"\)'
)


def font_faces(css: str) -> list[dict[str, str | int]]:
    """The @font-face rules of the inline CSS, for the worker (a worker has its own font set)."""
    faces: list[dict[str, str | int]] = [
        {"family": m["family"], "weight": int(m["weight"]), "url": m["url"]}
        for m in FONT_FACE.finditer(css)
    ]
    if not faces:
        raise RuntimeError("critical.css declares no @font-face the worker could load")
    return faces


def copy_fonts(target: Path) -> None:
    """The web fonts critical.css names, with each family's licence, from their npm packages."""
    target.mkdir(parents=True, exist_ok=True)
    for package, files in FONTS.items():
        source = ROOT / "node_modules" / "@fontsource" / package
        for name in files:
            shutil.copyfile(source / "files" / name, target / name)
        shutil.copyfile(source / "LICENSE", target / f"{package}-LICENSE.txt")
