use super::*;

#[test]
fn markup_roles_follow_the_engine() {
    assert_eq!(role_of_markup("a", "", "", true), Role::Link);
    assert_eq!(role_of_markup("A", "", "", false), Role::Generic);
    assert_eq!(role_of_markup("input", "submit", "", false), Role::Button);
    assert_eq!(role_of_markup("input", "", "", false), Role::Textbox);
    assert_eq!(
        role_of_markup("input", "password", "", false),
        Role::Textbox
    );
    assert_eq!(
        role_of_markup("input", "checkbox", "", false),
        Role::Checkbox
    );
    assert_eq!(role_of_markup("select", "", "", false), Role::Combobox);
    assert_eq!(role_of_markup("div", "", "tab", false), Role::Button);
    assert_eq!(role_of_markup("div", "", "", false), Role::Generic);
}

#[test]
fn facts_read_the_wire_names() {
    let f: DomFacts = serde_json::from_str(
        r#"{"tag":"input","type":"email","ariaLabel":"Work email","form":2,"ariaRole":"combobox","extra":1}"#,
    )
    .expect("facts");
    assert_eq!(f.input_type, "email");
    assert_eq!(f.aria_label, "Work email");
    assert_eq!(f.form, 2);
    assert_eq!(f.aria_role, "combobox");
    let back = serde_json::to_string(&f).expect("json");
    assert!(
        back.contains(r#""type":"email""#) && back.contains(r#""ariaLabel""#),
        "{back}"
    );
    assert_eq!(default_type("button", ""), "submit");
    assert_eq!(first_role(" Tab  presentation"), "tab");
}

#[test]
fn a_field_says_it_offers_suggestions_by_role_attribute_list_or_widget_class() {
    use super::suggests_by_markup as s;
    assert!(s("combobox", "", false, ""));
    assert!(s("", "list", false, ""));
    assert!(s("", "Both", false, ""));
    assert!(s("", "", true, ""));
    // jQuery UI's autocomplete leaves only its class on the field.
    assert!(s("", "", false, "form-control ui-autocomplete-input"));
    assert!(s("", "", false, "typeahead tt-input"));
    assert!(!s("", "none", false, "form-control"));
    assert!(!s("textbox", "", false, "search-input"));
    let f: DomFacts = serde_json::from_str(r#"{"tag":"input","suggests":true}"#).expect("facts");
    assert!(f.suggests);
}
