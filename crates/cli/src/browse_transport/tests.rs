use super::endpoint_url;

#[test]
fn the_endpoint_is_slash_browse_on_the_server() {
    assert_eq!(
        endpoint_url("http://127.0.0.1:3131"),
        "http://127.0.0.1:3131/browse"
    );
    assert_eq!(endpoint_url("http://h:1/"), "http://h:1/browse");
    assert_eq!(
        endpoint_url("http://h:1/api/browse"),
        "http://h:1/api/browse"
    );
}
