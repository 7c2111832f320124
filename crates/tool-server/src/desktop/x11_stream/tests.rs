use super::*;
use std::os::unix::net::UnixStream;
use std::time::Instant;

fn pair(limit: Duration) -> (TimedStream, UnixStream) {
    let (ours, theirs) = UnixStream::pair().unwrap();
    let (inner, _) = DefaultStream::from_unix_stream(ours).unwrap();
    let stream = TimedStream {
        inner,
        limit,
        write_blocked: AtomicBool::new(false),
    };
    (stream, theirs)
}

#[test]
fn a_silent_server_times_out_instead_of_hanging() {
    let (stream, _server) = pair(Duration::from_millis(50));
    let start = Instant::now();
    let err = stream.poll(PollMode::Readable).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::TimedOut);
    assert!(err.to_string().contains("did not answer"));
    assert!(start.elapsed() >= Duration::from_millis(50));
}

#[test]
fn an_answer_ends_the_wait() {
    use std::io::Write;
    let (stream, mut server) = pair(X_TIMEOUT);
    server.write_all(b"x").unwrap();
    stream.poll(PollMode::Readable).unwrap();
    let mut buf = [0u8; 4];
    assert_eq!(stream.read(&mut buf, &mut Vec::new()).unwrap(), 1);
}

#[test]
fn a_full_socket_makes_the_next_write_poll_wait() {
    let (stream, _server) = pair(Duration::from_millis(50));
    // Not known to be full: answered at once, no system call.
    stream.poll(PollMode::ReadAndWritable).unwrap();
    let chunk = [0u8; 4096];
    loop {
        match stream.write(&chunk, &mut Vec::new()) {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            Err(e) => panic!("{e}"),
        }
    }
    // Full and the peer reads nothing: a real wait, which times out.
    let err = stream.poll(PollMode::Writable).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::TimedOut);
}
