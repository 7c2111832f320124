//! Binding beyond loopback exposes the server to the network, where the
//! `Host` and `Origin` checks no longer say who is calling: an API key is
//! then required, and the server refuses to start without one.

use std::net::IpAddr;

#[derive(Debug, thiserror::Error)]
#[error(
    "refusing to listen on {addr} without an API key: anyone who can reach this machine \
     could use {service}. Set {key_flag} (or bind 127.0.0.1)"
)]
pub struct BindError {
    pub addr: IpAddr,
    pub service: &'static str,
    pub key_flag: &'static str,
}

/// `Ok` when `addr` is loopback or a key is configured.
pub fn check_bind(
    addr: IpAddr,
    has_key: bool,
    service: &'static str,
    key_flag: &'static str,
) -> Result<(), BindError> {
    if addr.is_loopback() || has_key {
        Ok(())
    } else {
        Err(BindError {
            addr,
            service,
            key_flag,
        })
    }
}
