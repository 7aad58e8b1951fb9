"""Steps the pit's browser walks share: finishing and signing an evaluation sheet, and
withdrawing a certification, each as the evaluator or signer does it on the page."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from trainer.games.observing import SheetTemplate


def sheet_finished_and_signed(page: Page, template: SheetTemplate, password: str) -> None:
    """The timed items after the first at 7 s, every rubric line at 8, a comment, then the
    signature; the sheet is listed as passed under the demo pit manager's signature."""
    for item in template.timed[1:]:
        page.fill(f"#time-{item.code}", "7.0")
    for line in template.rubric:
        page.select_option(f"#rubric-{line.code}", "8")
    page.fill("#comments", "Offered insurance to every box; settled right to left.")
    page.fill("#password", password)
    page.get_by_role("button", name="Sign the evaluation sheet").click()
    expect(page.locator("#sheets")).to_contain_text("passed")
    expect(page.locator("#sheets")).to_contain_text("Pit manager, licence PM-10417")


def certification_withdrawn(page: Page, certification_id: int, password: str) -> None:
    """Withdraw the certification from the trainee's page it is on; its history says so."""
    page.locator("summary", has_text="Withdraw this certification").click()
    withdraw = page.locator(f"form[action$='/certifications/{certification_id}/withdraw/']")
    withdraw.locator("textarea[name=statement]").fill("Mispaid a split on the floor")
    withdraw.locator("input[name=password]").fill(password)
    withdraw.locator("button[type=submit]").click()
    expect(page.locator(".pit-history")).to_contain_text("Withdrawal")


def certification_signed(page: Page, base: str, trainee_id: int, password: str) -> None:
    """Sign the trainee's certification on the sign-off page as the demo pit manager."""
    page.goto(f"{base}/pit/trainees/{trainee_id}/sign-off/")
    expect(page.locator("#signer-rank")).to_have_text("Pit manager")
    page.fill("#sign_statement", "Dealt the shoe to standard, observed live.")
    page.fill("#sign_password", password)
    page.get_by_role("button", name="Sign off the certification").click()
    expect(page.locator(".signer").first).to_contain_text("Pit manager, licence PM-10417")
