//! Announcing committed events across replicas: PostgreSQL's LISTEN/NOTIFY
//! on one channel, each notification carrying `"<seq> <run id>"` only
//! (a payload is capped at 8,000 bytes; the events are read from the
//! table). Each replica runs two tasks, each on a connection of its own
//! (outside the pool):
//!
//! - the **notifier** sends, after each commit, the notifications queued by
//!   this replica's turns, many per statement. It does so in a transaction
//!   of its own with `synchronous_commit = off`: a transaction that notifies
//!   holds a database-wide lock from its commit until its WAL is flushed, so
//!   notifying inside each turn would serialise every turn's commit behind
//!   the disk. Losing a notification loses no event (it is stored), only
//!   time: the listener's reconnection and the streams' periodic look-up
//!   catch up.
//! - the **listener** relays every notification into the replica's hub;
//!   after each (re)connection it asks every stream to look again.

use super::Shared;
use crate::hub::Hub;
use futures_util::StreamExt;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio_postgres::{AsyncMessage, Client, Config, NoTls, Statement};

pub(crate) const CHANNEL: &str = "sentience_run_events";
/// Notifications sent in one statement at most.
const BATCH: usize = 512;

/// `"<seq> <run id>"` → (run id, seq).
pub(crate) fn parse(payload: &str) -> Option<(&str, i64)> {
    let (seq, run_id) = payload.split_once(' ')?;
    Some((run_id, seq.parse().ok()?))
}

/// One batch of announcements (prepared once per connection: parsed and
/// planned once, one round trip per batch).
const NOTIFY: &str = "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p";

async fn connect(config: &Config) -> Result<(Client, Statement), tokio_postgres::Error> {
    let (client, conn) = config.connect(NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            tracing::debug!(error = %e, "notifier connection ended");
        }
    });
    client.batch_execute("SET synchronous_commit = off").await?;
    let statement = client.prepare(NOTIFY).await?;
    Ok((client, statement))
}

pub(crate) async fn notifier(config: Config, mut queue: mpsc::UnboundedReceiver<(String, i64)>) {
    let mut client: Option<(Client, Statement)> = None;
    let mut latest: HashMap<String, i64> = HashMap::new();
    while let Some((run, seq)) = queue.recv().await {
        latest.insert(run, seq);
        while latest.len() < BATCH {
            match queue.try_recv() {
                Ok((run, seq)) => {
                    let s = latest.entry(run).or_insert(seq);
                    *s = (*s).max(seq);
                }
                Err(_) => break,
            }
        }
        let payloads: Vec<String> = latest.drain().map(|(r, s)| format!("{s} {r}")).collect();
        for attempt in 0..3u64 {
            if client.is_none() {
                match connect(&config).await {
                    Ok(c) => client = Some(c),
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot connect to announce events to other replicas");
                        tokio::time::sleep(Duration::from_millis(100 * (attempt + 1))).await;
                        continue;
                    }
                }
            }
            let Some((c, statement)) = &client else {
                continue;
            };
            match c.execute(statement, &[&CHANNEL, &payloads]).await {
                Ok(_) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "announcing events to other replicas failed");
                    client = None;
                }
            }
        }
    }
}

/// Where the listener is, for opening the store and for `/health`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Listener {
    /// Not yet listening since the store opened.
    Connecting,
    Listening,
    /// Was listening, lost its connection, not listening again yet.
    Reconnecting,
}

impl Listener {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Listener::Connecting => "connecting",
            Listener::Listening => "listening",
            Listener::Reconnecting => "reconnecting",
        }
    }
}

/// Relays notifications into `hub` for as long as the store lives,
/// reconnecting with backoff; says where it is on `state`.
pub(crate) async fn listener(config: Config, shared: Arc<Shared>, state: watch::Sender<Listener>) {
    let mut backoff = Duration::from_millis(100);
    loop {
        let r = listen(&config, &shared, &state).await;
        // Only a listener that got to listen is *re*connecting; one that
        // never did is still connecting (a database not up yet).
        state.send_if_modified(|s| {
            let was = *s;
            if was == Listener::Listening {
                *s = Listener::Reconnecting;
            }
            was == Listener::Listening
        });
        match r {
            // It was up: start again at once.
            Ok(true) => backoff = Duration::from_millis(100),
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(error = %e, "event listener lost its connection; reconnecting")
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}

/// One connection's life: `Ok(true)` if it got to listen.
async fn listen(
    config: &Config,
    shared: &Shared,
    state: &watch::Sender<Listener>,
) -> Result<bool, tokio_postgres::Error> {
    let hub: &Hub = &shared.hub;
    let (client, mut conn) = config.connect(NoTls).await?;
    let mut messages = futures_util::stream::poll_fn(move |cx| conn.poll_message(cx));
    let relay = |m: AsyncMessage| {
        if let AsyncMessage::Notification(n) = m {
            if let Some((run_id, seq)) = parse(n.payload()) {
                shared.heard(run_id, seq);
                hub.announce(run_id, seq);
            }
        }
    };
    // The connection only makes progress while its messages are polled.
    let statement = format!("LISTEN {CHANNEL}");
    {
        let subscribe = client.batch_execute(&statement);
        tokio::pin!(subscribe);
        loop {
            tokio::select! {
                r = &mut subscribe => { r?; break; }
                m = messages.next() => match m {
                    Some(Ok(m)) => relay(m),
                    Some(Err(e)) => return Err(e),
                    None => return Ok(false),
                }
            }
        }
    }
    state.send_replace(Listener::Listening);
    // Anything announced while this listener was away is in the tables;
    // which runs other replicas wrote meanwhile is not known.
    shared.forget_all();
    hub.poke_all();
    while let Some(m) = messages.next().await {
        relay(m?);
    }
    drop(client);
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::postgres::TurnCounts;
    use std::sync::Mutex;

    /// A database not up yet is not a lost connection: `/health` must not
    /// say "reconnecting" for a listener that never listened.
    #[tokio::test]
    async fn a_listener_that_never_listened_is_connecting() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let mut config = Config::new();
        config
            .host("127.0.0.1")
            .port(port)
            .user("nobody")
            .connect_timeout(Duration::from_millis(200));
        let (notify, _queue) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            hub: Arc::new(Hub::default()),
            notify,
            fresh: Mutex::new(HashMap::new()),
            counts: TurnCounts::default(),
        });
        let (state, seen) = watch::channel(Listener::Connecting);
        let task = tokio::spawn(listener(config, shared, state));
        // Refused at once, then retried after 100 and 200 ms.
        tokio::time::sleep(Duration::from_millis(450)).await;
        assert_eq!(*seen.borrow(), Listener::Connecting);
        task.abort();
    }
}
