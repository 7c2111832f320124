//! The `Host` check (docs/security.md "DNS rebinding"). A page on
//! `http://evil.example:3131` whose name the attacker re-points at
//! 127.0.0.1 becomes same-origin with this server: the browser then lets it
//! read every answer. What it cannot change is the `Host` its requests
//! carry (`evil.example:3131`), so a server that answers only to the names
//! it really has is out of its reach.
//!
//! Allowed: `localhost` and loopback addresses (`127.0.0.1`, `[::1]`) with a
//! port we listen on, the address we are bound to, any IP literal when we
//! are bound to every interface (a rebinding page always uses a name, never
//! an address), and the names configured with `--allowed-host`.
//! A request without `Host` passes: browsers always send one, so such a
//! request does not come from a page.

use std::net::{IpAddr, SocketAddr};

/// Splits `name[:port]` / `[v6][:port]`; the name lower-cased, brackets off.
pub(crate) fn split(host: &str) -> (String, Option<&str>) {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((v6, tail)) => (v6, tail.strip_prefix(':')),
            None => (host, None),
        }
    } else {
        match host.rsplit_once(':') {
            Some((n, p)) if !n.contains(':') => (n, Some(p)),
            _ => (host, None),
        }
    };
    (name.trim_end_matches('.').to_ascii_lowercase(), port)
}

/// Whether `host` (the header's value) names this server.
pub(crate) fn allowed(host: &str, bound: &[SocketAddr], extra: &[String]) -> bool {
    let (name, port) = split(host);
    let port: Option<u16> = match port {
        None => None,
        Some(p) => match p.parse() {
            Ok(p) => Some(p),
            Err(_) => return false,
        },
    };
    // A configured name: `name` for any port, `name:port` for that one.
    if extra.iter().any(|e| {
        let (n, p) = split(e.trim());
        n == name && p.is_none_or(|p| p.parse::<u16>().ok() == port)
    }) {
        return true;
    }
    let port_ok = bound.is_empty() || port.is_none_or(|p| bound.iter().any(|b| b.port() == p));
    if !port_ok {
        return false;
    }
    if name == "localhost" {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => {
            ip.is_loopback()
                || bound
                    .iter()
                    .any(|b| b.ip() == ip || b.ip().is_unspecified())
                || (bound.is_empty() && ip.is_loopback())
        }
        Err(_) => false,
    }
}
