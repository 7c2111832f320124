//! The X connection's socket, with a time limit on every wait.
//!
//! Desktop input runs on the request's own task, not on the blocking pool
//! (docs/tools.md "Latency": the thread hop cost ~20 µs of a ~100 µs
//! click). That is only safe if no X call can block for long: x11rb waits
//! for the socket with `poll` and no timeout, so an X server that stops
//! answering would hold the task forever. Here every wait is bounded
//! (`X_TIMEOUT`); past it the call fails with a clear error (issue: "every
//! browser and X call has a timeout").
//!
//! x11rb also polls "readable or writable" before each request it merely
//! copies into its own buffer: a system call per request. Those polls are
//! answered at once unless the last write found the socket full, which the
//! `Stream` contract allows (a spurious wake-up; the next write then waits
//! for real, so it never spins).

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::io::Errno;
use std::io::{self, IoSlice};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use x11rb::reexports::x11rb_protocol::{parse_display, xauth};
use x11rb::rust_connection::{DefaultStream, PollMode, RustConnection, Stream};
use x11rb::utils::RawFdContainer;

/// The longest any single wait for the X server may take.
pub(super) const X_TIMEOUT: Duration = Duration::from_secs(5);

pub(super) type XConnection = RustConnection<TimedStream>;

pub(super) struct TimedStream {
    inner: DefaultStream,
    limit: Duration,
    /// The last write could not take everything: the next poll for
    /// writing must really wait.
    write_blocked: AtomicBool,
}

impl TimedStream {
    fn wait(&self, flags: PollFlags) -> io::Result<()> {
        let limit = Timespec::try_from(self.limit)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "bad X time limit"))?;
        loop {
            let mut fds = [PollFd::new(&self.inner, flags)];
            match poll(&mut fds, Some(&limit)) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!(
                            "the X server did not answer within {} s",
                            self.limit.as_secs()
                        ),
                    ))
                }
                Ok(_) => return Ok(()),
                Err(Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }

    fn note_write(&self, r: io::Result<usize>) -> io::Result<usize> {
        let blocked = matches!(&r, Err(e) if e.kind() == io::ErrorKind::WouldBlock);
        self.write_blocked.store(blocked, Ordering::Relaxed);
        r
    }
}

impl Stream for TimedStream {
    fn poll(&self, mode: PollMode) -> io::Result<()> {
        if mode.writable() && !self.write_blocked.load(Ordering::Relaxed) {
            // Nothing says the socket is full: let x11rb try.
            return Ok(());
        }
        let mut flags = PollFlags::empty();
        if mode.readable() {
            flags |= PollFlags::IN;
        }
        if mode.writable() {
            flags |= PollFlags::OUT;
        }
        self.wait(flags)?;
        self.write_blocked.store(false, Ordering::Relaxed);
        Ok(())
    }

    fn read(&self, buf: &mut [u8], fd_storage: &mut Vec<RawFdContainer>) -> io::Result<usize> {
        self.inner.read(buf, fd_storage)
    }

    fn write(&self, buf: &[u8], fds: &mut Vec<RawFdContainer>) -> io::Result<usize> {
        self.note_write(self.inner.write(buf, fds))
    }

    fn write_vectored(
        &self,
        bufs: &[IoSlice<'_>],
        fds: &mut Vec<RawFdContainer>,
    ) -> io::Result<usize> {
        self.note_write(self.inner.write_vectored(bufs, fds))
    }
}

/// Connects to `name` as `x11rb::connect` does (every address the display
/// name gives, with the Xauthority entry for it), over a `TimedStream`.
/// Returns the connection and the screen number.
pub(super) fn connect(name: &str) -> Result<(XConnection, usize), String> {
    let parsed = parse_display::parse_display(Some(name)).map_err(|e| e.to_string())?;
    let screen = usize::from(parsed.screen);
    let mut last = String::from("no address to connect to");
    for addr in parsed.connect_instruction() {
        match DefaultStream::connect(&addr) {
            Ok((inner, (family, address))) => {
                // As x11rb: no usable Xauthority entry means no auth data.
                let (auth_name, auth_data) = xauth::get_auth(family, &address, parsed.display)
                    .ok()
                    .flatten()
                    .unwrap_or_default();
                let stream = TimedStream {
                    inner,
                    limit: X_TIMEOUT,
                    write_blocked: AtomicBool::new(false),
                };
                let conn = RustConnection::connect_to_stream_with_auth_info(
                    stream, screen, auth_name, auth_data,
                )
                .map_err(|e| e.to_string())?;
                return Ok((conn, screen));
            }
            Err(e) => last = e.to_string(),
        }
    }
    Err(last)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
