use crate::behavior::*;

fn b(task: &str) -> (bool, bool) {
    let r = detect_browser_behavior(task);
    (r.new_tab, r.close_current)
}

#[test]
fn every_new_tab_pattern_opens_a_tab() {
    for p in NEW_TAB_PATTERNS {
        assert_eq!(
            b(&format!("Per favore {p} con gmail")),
            (true, false),
            "{p}"
        );
    }
    assert_eq!(b("Apri una nuova scheda con Gmail"), (true, false));
    assert_eq!(b("Open Gmail in a new tab"), (true, false));
}

#[test]
fn every_close_pattern_restarts() {
    for p in CLOSE_PATTERNS {
        assert_eq!(b(&format!("x {p} y")), (false, true), "{p}");
    }
    assert_eq!(b("Riavvia browser e vai su gmail"), (false, true));
    assert_eq!(b("Restart browser, then log in"), (false, true));
}

#[test]
fn same_page_overrides_both_in_both_languages() {
    for p in SAME_PAGE_PATTERNS {
        assert_eq!(
            b(&format!("apri nuova tab, riavvia browser, {p}")),
            (false, false),
            "{p}"
        );
    }
    assert_eq!(b("Open a new tab... no, use this page"), (false, false));
    assert_eq!(
        b("Nuova scheda? No: resta sulla stessa pagina"),
        (false, false)
    );
}

#[test]
fn nothing_matches_plain_tasks() {
    assert_eq!(b("Log in as alice"), (false, false));
    assert_eq!(b("Accedi come alice"), (false, false));
}

#[test]
fn case_accents_and_spaces_are_ignored() {
    assert_eq!(b("APRI   UNA NUOVA SCHEDA"), (true, false));
    assert_eq!(b("Ricominciá da zèro"), (false, true));
    assert_eq!(b("CONTINUÀ qui"), (false, false));
    assert_eq!(b("Open\tNEW\nTab"), (true, false));
    assert_eq!(fold("  Àbc  DÉF "), "abc def");
}
