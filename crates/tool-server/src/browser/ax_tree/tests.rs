use super::*;
use serde_json::json;

#[test]
fn renders_the_spec_shape() {
    let nodes = json!([
        {"nodeId": "1", "ignored": false, "role": {"value": "RootWebArea"}, "name": {"value": "Gmail"}, "childIds": ["2"]},
        {"nodeId": "2", "parentId": "1", "ignored": true, "role": {"value": "generic"}, "childIds": ["3", "5"]},
        {"nodeId": "3", "parentId": "2", "ignored": false, "role": {"value": "navigation"}, "name": {"value": "Main"}, "childIds": ["4"]},
        {"nodeId": "4", "parentId": "3", "ignored": false, "role": {"value": "link"}, "name": {"value": "Inbox"}, "childIds": ["6"]},
        {"nodeId": "6", "parentId": "4", "ignored": false, "role": {"value": "StaticText"}, "name": {"value": "Inbox"}, "childIds": []},
        {"nodeId": "5", "parentId": "2", "ignored": false, "role": {"value": "main"}, "name": {"value": ""}, "childIds": []}
    ]);
    assert_eq!(
        render(&nodes),
        "[WebArea] \"Gmail\"\n  [navigation] \"Main\"\n    [link] \"Inbox\"\n  [main]"
    );
}
