"""Every chip legible on the felt (issue #24, found point 9: the 25 chip, green on the green
felt, was nearly invisible). Computed from the stylesheets themselves: each chip's rim
against every colour of the felt (WCAG 2.1 SC 1.4.11, non-text contrast, 3:1), the value
printed on it against its colour (SC 1.4.3, 4.5:1: the print is small), and the 25 chip's
own colour against the felt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from trainer.games.blackjack.display import CHIP_COLOURS

CSS = Path(__file__).resolve().parents[2] / "static" / "css"
FELT_CSS = (CSS / "felt.css").read_text()
SITE_CSS = (CSS / "site.css").read_text()


def luminance(colour: str) -> float:
    """WCAG relative luminance of #rgb or #rrggbb."""
    hex_ = colour.lstrip("#")
    if len(hex_) == 3:
        hex_ = "".join(c * 2 for c in hex_)
    channels = [int(hex_[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _variable(css: str, name: str) -> str:
    found = re.search(rf"{re.escape(name)}:\s*(#[0-9a-fA-F]{{3,6}})\b", css)
    assert found, f"{name} is not set in the stylesheet"
    return found.group(1)


def felt_colours() -> list[str]:
    """Every colour the felt is painted in: its gradient's stops, the variables resolved."""
    rule = re.search(r"\.felt\s*\{[^}]*background:\s*([^;]+);", FELT_CSS)
    assert rule, "the .felt rule has no background"
    found = re.findall(r"#[0-9a-fA-F]{3,6}\b", rule.group(1))
    colours = found + [
        _variable(SITE_CSS, v) for v in re.findall(r"var\((--[a-z-]+)\)", rule.group(1))
    ]
    assert len(colours) >= 3
    return colours


def chip_rule(colour: str) -> dict[str, str]:
    rule = re.search(rf"\.chip-{colour}\s*\{{([^}}]*)\}}", FELT_CSS)
    assert rule, f"no .chip-{colour} rule in felt.css"
    return {
        name: _variable(rule.group(1), f"--{name}") for name in ("chip", "chip-text", "chip-edge")
    }


@pytest.mark.parametrize(("value", "colour"), sorted(CHIP_COLOURS.items()))
def test_every_chips_rim_stands_out_from_every_colour_of_the_felt(value, colour):
    rule = chip_rule(colour)
    for felt in felt_colours():
        ratio = contrast(rule["chip-edge"], felt)
        assert ratio >= 3, f"the {value} chip's rim is {ratio:.2f}:1 against the felt's {felt}"


@pytest.mark.parametrize(("value", "colour"), sorted(CHIP_COLOURS.items()))
def test_the_value_printed_on_every_chip_reads(value, colour):
    rule = chip_rule(colour)
    ratio = contrast(rule["chip-text"], rule["chip"])
    assert ratio >= 4.5, f"the {value} chip's print is {ratio:.2f}:1 against its colour"


def test_the_25_chip_is_not_the_felts_green():
    green = chip_rule(CHIP_COLOURS["25"])["chip"]
    for felt in felt_colours():
        assert contrast(green, felt) >= 3, f"the 25 chip {green} against the felt's {felt}"


@pytest.mark.parametrize(
    "selector", [r'\.chip\[class\*="chip-"\]', r"\.stack-chip", r"\.mini-chip"]
)
def test_every_way_a_chip_is_drawn_wears_its_rim(selector):
    rule = re.search(rf"(?m)^{selector}\s*\{{([^}}]*)\}}", FELT_CSS)
    assert rule, selector
    shadow = re.search(r"box-shadow:\s*([^;]+);", rule.group(1))
    assert shadow, selector
    assert "var(--chip-edge)" in shadow.group(1), selector


@pytest.mark.parametrize("selector", [r"\.chip", r"\.insurance-chip"])
def test_the_stake_and_insurance_chips_rims_stand_out_too(selector):
    rule = re.search(rf"(?m)^{selector}\s*\{{([^}}]*)\}}", FELT_CSS)
    assert rule, selector
    rim = re.search(r"box-shadow:\s*0 0 0 \d+px (#[0-9a-fA-F]{3,6})", rule.group(1))
    assert rim, selector
    for felt in felt_colours():
        assert contrast(rim.group(1), felt) >= 3, (selector, felt)
