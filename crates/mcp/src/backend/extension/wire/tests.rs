use super::*;
use serde_json::json;

#[test]
fn messages_read_and_write_as_documented() {
    let hello: FromExtension =
        serde_json::from_value(json!({"type": "hello", "token": "t", "version": "1"})).unwrap();
    assert!(matches!(hello, FromExtension::Hello { token, .. } if token == "t"));
    let r: FromExtension =
        serde_json::from_value(json!({"type": "result", "id": 7, "ok": false, "error": "no"}))
            .unwrap();
    assert!(matches!(
        r,
        FromExtension::Result {
            id: 7,
            ok: false,
            ..
        }
    ));
    let params = json!({"tabId": 3});
    let req = ToExtension::Request {
        id: 9,
        method: Method::PageState,
        params: &params,
    };
    assert_eq!(
        serde_json::to_value(&req).unwrap(),
        json!({"type": "request", "id": 9, "method": "page_state", "params": {"tabId": 3}})
    );
    for m in Method::ALL {
        assert_eq!(serde_json::to_value(m).unwrap(), json!(m.name()));
    }
}
