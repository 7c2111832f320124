//! The listening socket, with an accept queue sized for bursts of clients.
//!
//! `tokio::net::TcpListener::bind` asks for a backlog of 128 (the standard
//! library's). When more clients connect at once than the server accepts
//! in that moment (500 agents, or every extension reconnecting after a
//! restart), Linux drops the surplus SYNs and each of those clients retries
//! after its initial retransmission timeout, one second: the benchmark's
//! stream level counted ~130 such drops per run (`nstat`
//! `TcpExtListenOverflows`), every one a stream whose first events came
//! ~1 s late (docs/benchmarks.md "Agent server"). The kernel caps the
//! backlog at `net.core.somaxconn` (4096 by default since Linux 5.4).

use std::io;
use tokio::net::{lookup_host, TcpListener, TcpSocket, ToSocketAddrs};

/// Connections the kernel queues for `accept` before dropping new ones.
pub const BACKLOG: u32 = 4096;

/// Binds the first address `addr` resolves to that accepts the bind, as
/// `TcpListener::bind` does, with a backlog of `BACKLOG`.
pub async fn bind(addr: impl ToSocketAddrs) -> io::Result<TcpListener> {
    let mut last = None;
    for a in lookup_host(addr).await? {
        let socket = if a.is_ipv4() {
            TcpSocket::new_v4()?
        } else {
            TcpSocket::new_v6()?
        };
        // As `TcpListener::bind` does on Unix: a restarted server can bind
        // while old connections linger in TIME_WAIT.
        #[cfg(unix)]
        socket.set_reuseaddr(true)?;
        match socket.bind(a).and_then(|()| socket.listen(BACKLOG)) {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "could not resolve to any address",
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// 300 clients connect at once to a server that has not accepted any
    /// yet: every one is queued (with a backlog of 128 the rest have their
    /// SYN dropped and only get in a second later, on retransmission).
    #[tokio::test]
    async fn a_burst_of_connections_is_queued_not_dropped() {
        let listener = bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let mut clients = Vec::new();
        for _ in 0..300 {
            clients.push(tokio::spawn(async move {
                tokio::time::timeout(
                    Duration::from_millis(700),
                    tokio::net::TcpStream::connect(addr),
                )
                .await
            }));
        }
        let mut queued = 0;
        let mut held = Vec::new();
        for c in clients {
            if let Ok(Ok(Ok(s))) = c.await {
                queued += 1;
                held.push(s);
            }
        }
        assert_eq!(queued, 300, "connections dropped by a full accept queue");
        drop(listener);
    }
}
