"""Published reference data sets (R datasets, NIST StRD files shipped in scipy's wheel)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import scipy

SCIPY_DATA = Path(scipy.__file__).parent / "stats" / "tests" / "data"

# R datasets::sleep, column `extra` by `group`.
SLEEP_GROUP1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_GROUP2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]

# R datasets::PlantGrowth, `weight` by `group`.
PLANT_GROWTH = {
    "ctrl": [4.17, 5.58, 5.18, 6.11, 4.50, 4.61, 5.17, 4.53, 5.33, 5.14],
    "trt1": [4.81, 4.17, 4.41, 3.59, 5.87, 3.83, 6.03, 4.89, 4.32, 4.69],
    "trt2": [6.31, 5.12, 5.54, 5.50, 5.37, 5.29, 4.92, 6.15, 5.80, 5.26],
}

# R datasets::mtcars, (wt, mpg) in row order.
MTCARS_WT_MPG = [
    (2.620, 21.0), (2.875, 21.0), (2.320, 22.8), (3.215, 21.4), (3.440, 18.7), (3.460, 18.1),
    (3.570, 14.3), (3.190, 24.4), (3.150, 22.8), (3.440, 19.2), (3.440, 17.8), (4.070, 16.4),
    (3.730, 17.3), (3.780, 15.2), (5.250, 10.4), (5.424, 10.4), (5.345, 14.7), (2.200, 32.4),
    (1.615, 30.4), (1.835, 33.9), (2.465, 21.5), (3.520, 15.5), (3.435, 15.2), (3.840, 13.3),
    (3.845, 19.2), (1.935, 27.3), (2.140, 26.0), (1.513, 30.4), (3.170, 15.8), (2.770, 19.7),
    (3.570, 15.0), (2.780, 21.4),
]  # fmt: skip


def _data_lines(path: Path) -> list[list[str]]:
    """Rows after the last ``Data:`` line (the column header) of a NIST StRD file, split on whitespace."""
    lines = path.read_text().splitlines()
    start = max(i for i, line in enumerate(lines) if line.strip().startswith("Data:"))
    return [line.split() for line in lines[start + 1 :] if line.strip()]


def certified(path: Path, label: str) -> list[str]:
    """Tokens of the first line starting with ``label`` and ending in a number (a certified value)."""
    for line in path.read_text().splitlines():
        tokens = line.split()
        if line.strip().startswith(label) and _is_number(tokens[-1]):
            return tokens
    raise KeyError(label)


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def nist_anova_groups(name: str) -> dict[str, list[Decimal]]:
    """Groups of a NIST one-way ANOVA file, values kept exactly as printed (Decimal)."""
    groups: dict[str, list[Decimal]] = {}
    for treatment, value in _data_lines(SCIPY_DATA / "nist_anova" / f"{name}.dat"):
        groups.setdefault(treatment, []).append(Decimal(value))
    return groups


def nist_norris() -> tuple[list[float], list[float]]:
    """(x, y) of the NIST Norris regression file (the file lists y first)."""
    rows = _data_lines(SCIPY_DATA / "nist_linregress" / "Norris.dat")
    return [float(r[1]) for r in rows], [float(r[0]) for r in rows]
