//! The connections of `serve`: accepting them, reading requests, sending answers, and closing them all at stop.
//!
//! Every connection has a thread of its own, for as long as it is open. A browser opens several connections at
//! once to a server it has just met, some of them speculative ones that send nothing for a while, and keeps the
//! event stream open as long as the page; with a thread each, none of them waits for another. A connection that
//! sends nothing is closed after a few seconds (and one whose request head does not arrive whole in time), so idle
//! sockets hold only their own thread, and not for long. The server is a local preview: the number of
//! connections open at once is bounded, generously, rather than pooled.
//!
//! Requests are HTTP/1.1 (or 1.0) heads parsed by `httparse`, bounded in size and in number of header fields.
//! Connections are kept alive between requests unless the client asks otherwise; a request with a body (which
//! GET and HEAD have no use for) is answered and its connection closed, its body unread. Refusals: 400 for a
//! request that is not HTTP, 431 for a head too large, 408 for one that stops arriving half-way.
//!
//! At stop, the server accepts no more connections, ends those waiting for a request, lets the responses being
//! sent finish (the event streams end by themselves, told by `Live::stop`), and closes whatever is left after a
//! short grace.

use std::collections::HashMap;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant, SystemTime};

use super::http::{Reply, Response, Site};

/// The largest request head read, request line and fields together. Browsers send a few hundred bytes.
const MAX_HEAD: usize = 16 * 1024;

/// The most header fields a request may have.
const MAX_HEADERS: usize = 64;

/// How long a connection may wait before the first byte of a request: speculative connections, and those kept
/// alive after a response. The browser opens a new one when it needs it.
const IDLE: Duration = Duration::from_secs(5);

/// How long a request head may take to arrive whole once it has begun.
const HEAD: Duration = Duration::from_secs(10);

/// How long a write may wait for a client that does not read, before its connection is given up.
const WRITE: Duration = Duration::from_secs(30);

/// Connections open at once. Each holds a thread; a few browser tabs need a few dozen.
const MAX_CONNECTIONS: usize = 512;

/// How long the stop waits for responses being sent to finish, before it closes their connections.
const GRACE: Duration = Duration::from_secs(2);

/// How much of an unread request the close waits to read and drop, so that the client gets the answer rather
/// than a reset connection.
const LINGER_BYTES: usize = 64 * 1024;
const LINGER: Duration = Duration::from_secs(1);

/// A server listening on its address, each connection on a thread of its own.
pub struct Listening {
    address: SocketAddr,
    acceptor: JoinHandle<()>,
    connections: Arc<Connections>,
}

/// Start listening on `address` and answering with `site`.
pub fn listen(address: SocketAddr, site: Site) -> io::Result<Listening> {
    let listener = TcpListener::bind(address)?;
    let address = listener.local_addr()?;
    let connections = Arc::new(Connections::default());
    let acceptor = {
        let connections = Arc::clone(&connections);
        thread::Builder::new()
            .name("serve-accept".to_string())
            .spawn(move || accept(&listener, &site, &connections))?
    };
    Ok(Listening {
        address,
        acceptor,
        connections,
    })
}

impl Listening {
    /// The address listened on (with the port chosen when 0 was asked for).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Stop accepting, end the connections waiting for a request, let the responses being sent finish, and
    /// close what is left after the grace. Event streams must have been told to end (`Live::stop`) first.
    pub fn stop(self) {
        self.connections.stop();
        // The acceptor is blocked in `accept`: a connection of our own wakes it, to find the server stopping.
        let woken = TcpStream::connect_timeout(&reachable(self.address), Duration::from_secs(1));
        if woken.is_ok() {
            let _ = self.acceptor.join();
        }
        if !self.connections.wait_closed(GRACE) {
            self.connections.close_all();
            self.connections.wait_closed(GRACE);
        }
    }
}

/// The address to connect to to reach a listener bound to `address`: a listener on every address is reached on
/// loopback.
fn reachable(address: SocketAddr) -> SocketAddr {
    let ip = match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, address.port())
}

fn accept(listener: &TcpListener, site: &Site, connections: &Arc<Connections>) {
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(err) => {
                if connections.stopping() {
                    return;
                }
                // Out of file descriptors, or a connection reset before it was accepted: wait a little rather
                // than spin, and go on.
                if err.kind() != ErrorKind::ConnectionAborted {
                    thread::sleep(Duration::from_millis(20));
                }
                continue;
            }
        };
        let registration = match connections.register(&stream) {
            Ok(registration) => registration,
            Err(Refused::Stopping) => return,
            // Too many at once: this one is closed unanswered, and the client may try again.
            Err(Refused::Full) => continue,
        };
        let site = site.clone();
        // A thread that cannot be started drops the connection (and its registration) with its closure.
        let _ = thread::Builder::new()
            .name("serve-connection".to_string())
            .spawn(move || {
                Connection::new(stream).serve(&site, &registration.connections);
                drop(registration);
            });
    }
}

/// The open connections, each with a handle on its socket so that the stop can end it.
#[derive(Default)]
struct Connections {
    open: Mutex<Open>,
    closed: Condvar,
}

#[derive(Default)]
struct Open {
    stopping: bool,
    next: u64,
    sockets: HashMap<u64, TcpStream>,
}

enum Refused {
    Stopping,
    Full,
}

/// A connection's place among the open ones, given back when its thread ends.
struct Registration {
    id: u64,
    connections: Arc<Connections>,
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.connections.lock().sockets.remove(&self.id);
        self.connections.closed.notify_all();
    }
}

impl Connections {
    fn lock(&self) -> MutexGuard<'_, Open> {
        // The lock is held only by the few lines below, which do not panic; a poisoned one is still consistent.
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn stopping(&self) -> bool {
        self.lock().stopping
    }

    fn register(self: &Arc<Self>, stream: &TcpStream) -> Result<Registration, Refused> {
        let mut open = self.lock();
        // Checked under the same lock as the stop sets it, so that no connection escapes the stop's shutdown.
        if open.stopping {
            return Err(Refused::Stopping);
        }
        if open.sockets.len() >= MAX_CONNECTIONS {
            return Err(Refused::Full);
        }
        let handle = stream.try_clone().map_err(|_| Refused::Full)?;
        let id = open.next;
        open.next += 1;
        open.sockets.insert(id, handle);
        Ok(Registration {
            id,
            connections: Arc::clone(self),
        })
    }

    /// No more connections; those waiting for a request read the end of their input and close. Writing is left
    /// open, so that a response being sent is sent whole.
    fn stop(&self) {
        let mut open = self.lock();
        open.stopping = true;
        for socket in open.sockets.values() {
            let _ = socket.shutdown(Shutdown::Read);
        }
    }

    /// Close every connection still open, in both directions: its thread's next read or write fails.
    fn close_all(&self) {
        for socket in self.lock().sockets.values() {
            let _ = socket.shutdown(Shutdown::Both);
        }
    }

    /// Wait until every connection has ended, at most `within`; whether they have.
    fn wait_closed(&self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        let mut open = self.lock();
        while !open.sockets.is_empty() {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            open = self
                .closed
                .wait_timeout(open, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }
}

/// A request whose head was read whole.
struct Request {
    method: String,
    target: String,
    /// HTTP/1.0 or HTTP/1.1.
    minor: u8,
    /// Whether the client asked for the connection to stay open after the answer.
    keep_alive: bool,
    /// Whether a body follows the head (left unread: the connection closes after the answer).
    body: bool,
    /// The versions of the file the client holds (`If-None-Match`), as sent.
    if_none_match: Option<String>,
}

/// What reading a request head came to.
enum Head {
    Request(Request),
    /// The client closed the connection, or sent nothing in time: nothing to answer.
    Closed,
    /// A request that cannot be answered, with the status that says why; the connection closes after it.
    Refused(u16, &'static str),
}

/// One connection: its socket, and the bytes read from it past the last request head (a pipelined request).
struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Connection {
    fn new(stream: TcpStream) -> Connection {
        Connection {
            stream,
            buffer: Vec::new(),
        }
    }

    /// Answer requests until the client closes, asks to close, goes idle, or the server stops.
    fn serve(mut self, site: &Site, connections: &Connections) {
        // Responses are written whole, head and body, so waiting to fill packets only delays them.
        let _ = self.stream.set_nodelay(true);
        if self.stream.set_write_timeout(Some(WRITE)).is_err() {
            return;
        }
        loop {
            let request = match self.read_head() {
                Head::Request(request) => request,
                Head::Closed => return,
                Head::Refused(status, message) => {
                    let response = Response::text(status, message);
                    if self.send(&response, 1, false, false).is_ok() {
                        self.linger();
                    }
                    return;
                }
            };
            let keep_alive = request.keep_alive && !request.body && !connections.stopping();
            let head_only = request.method == "HEAD";
            match site.answer(&request.method, &request.target) {
                Reply::Response(response) => {
                    let response = response.unless_held(request.if_none_match.as_deref());
                    if self
                        .send(&response, request.minor, head_only, keep_alive)
                        .is_err()
                    {
                        return;
                    }
                }
                Reply::Events(events) => {
                    // The stream's body ends when the connection does: no length, and nothing read after it.
                    let head = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
                         Date: {}\r\nConnection: close\r\n\r\n",
                        httpdate::fmt_http_date(SystemTime::now())
                    );
                    if self.stream.write_all(head.as_bytes()).is_ok() {
                        events.send(&mut self.stream);
                    }
                    let _ = self.stream.shutdown(Shutdown::Both);
                    return;
                }
            }
            if !keep_alive {
                if request.body || !self.buffer.is_empty() {
                    self.linger();
                } else {
                    let _ = self.stream.shutdown(Shutdown::Write);
                }
                return;
            }
        }
    }

    /// Read until the buffer holds a whole request head, and take it out of the buffer.
    fn read_head(&mut self) -> Head {
        let mut deadline = Instant::now() + if self.buffer.is_empty() { IDLE } else { HEAD };
        let mut begun = !self.buffer.is_empty();
        let mut chunk = [0u8; 4096];
        loop {
            if !self.buffer.is_empty() {
                match parse(&self.buffer) {
                    Parsed::Complete(request, length) => {
                        self.buffer.drain(..length);
                        return Head::Request(request);
                    }
                    Parsed::Partial if self.buffer.len() >= MAX_HEAD => {
                        return Head::Refused(431, "The request head is too large.\n");
                    }
                    Parsed::Partial => {}
                    Parsed::Refused(status, message) => return Head::Refused(status, message),
                }
                if !begun {
                    begun = true;
                    deadline = Instant::now() + HEAD;
                }
            }
            let now = Instant::now();
            if now >= deadline {
                return if begun {
                    Head::Refused(408, "The request head did not arrive in time.\n")
                } else {
                    Head::Closed
                };
            }
            if self.stream.set_read_timeout(Some(deadline - now)).is_err() {
                return Head::Closed;
            }
            let room = (MAX_HEAD - self.buffer.len().min(MAX_HEAD)).clamp(1, chunk.len());
            match self.stream.read(&mut chunk[..room]) {
                Ok(0) => return Head::Closed,
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
                Err(err)
                    if matches!(
                        err.kind(),
                        ErrorKind::Interrupted | ErrorKind::WouldBlock | ErrorKind::TimedOut
                    ) => {}
                Err(_) => return Head::Closed,
            }
        }
    }

    /// Send a whole response; a HEAD request gets its head only, with the length the body would have.
    fn send(
        &mut self,
        response: &Response,
        minor: u8,
        head_only: bool,
        keep_alive: bool,
    ) -> io::Result<()> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\n",
            response.status,
            reason(response.status)
        );
        for (name, value) in &response.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        // A 304 has no body, and its length would be the one of the body it stands for: none is said.
        if response.status != 304 {
            head.push_str(&format!("Content-Length: {}\r\n", response.body.len()));
        }
        head.push_str(&format!(
            "Date: {}\r\n",
            httpdate::fmt_http_date(SystemTime::now())
        ));
        match (keep_alive, minor) {
            (false, _) => head.push_str("Connection: close\r\n"),
            // HTTP/1.0 closes by default; the client asked otherwise.
            (true, 0) => head.push_str("Connection: keep-alive\r\n"),
            (true, _) => {}
        }
        head.push_str("\r\n");
        let mut out = head.into_bytes();
        if !head_only {
            out.extend_from_slice(&response.body);
        }
        self.stream.write_all(&out)?;
        self.stream.flush()
    }

    /// Close after an answer while the client may still be sending (a body, a request that was refused): stop
    /// writing, then read and drop what comes for a moment, since closing a socket with unread input resets
    /// the connection, and the client could lose the answer with it.
    fn linger(&mut self) {
        if self.stream.shutdown(Shutdown::Write).is_err()
            || self.stream.set_read_timeout(Some(LINGER)).is_err()
        {
            return;
        }
        let deadline = Instant::now() + LINGER;
        let mut dropped = 0;
        let mut chunk = [0u8; 4096];
        while dropped < LINGER_BYTES && Instant::now() < deadline {
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => return,
                Ok(n) => dropped += n,
            }
        }
    }
}

enum Parsed {
    Complete(Request, usize),
    Partial,
    Refused(u16, &'static str),
}

/// Parse the request head at the start of `buffer`.
fn parse(buffer: &[u8]) -> Parsed {
    let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut fields);
    let length = match request.parse(buffer) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => return Parsed::Partial,
        Err(httparse::Error::TooManyHeaders) => {
            return Parsed::Refused(431, "The request has too many header fields.\n");
        }
        Err(_) => return Parsed::Refused(400, "This is not an HTTP/1.1 request.\n"),
    };
    if length > MAX_HEAD {
        return Parsed::Refused(431, "The request head is too large.\n");
    }
    let (Some(method), Some(target), Some(minor)) = (request.method, request.path, request.version)
    else {
        return Parsed::Refused(400, "This is not an HTTP/1.1 request.\n");
    };
    let mut close = false;
    let mut keep_alive = false;
    let mut body = false;
    let mut declared: Option<&[u8]> = None;
    let mut if_none_match = None;
    for field in request.headers.iter() {
        if field.name.eq_ignore_ascii_case("if-none-match") {
            if_none_match = Some(String::from_utf8_lossy(field.value).into_owned());
        } else if field.name.eq_ignore_ascii_case("connection") {
            for option in field.value.split(|&b| b == b',') {
                let option = option.trim_ascii();
                close |= option.eq_ignore_ascii_case(b"close");
                keep_alive |= option.eq_ignore_ascii_case(b"keep-alive");
            }
        } else if field.name.eq_ignore_ascii_case("transfer-encoding") {
            body = true;
        } else if field.name.eq_ignore_ascii_case("content-length") {
            let value = field.value.trim_ascii();
            // A length that is not a number, or two lengths that differ, leave the request's end unknown.
            if value.is_empty()
                || !value.iter().all(u8::is_ascii_digit)
                || declared.is_some_and(|d| d != value)
            {
                return Parsed::Refused(400, "The request's Content-Length is not valid.\n");
            }
            declared = Some(value);
            body |= value.iter().any(|&b| b != b'0');
        }
    }
    let request = Request {
        method: method.to_string(),
        target: target.to_string(),
        minor,
        keep_alive: if minor == 0 {
            keep_alive && !close
        } else {
            !close
        },
        body,
        if_none_match,
    };
    Parsed::Complete(request, length)
}

/// The reason phrase of the statuses this server sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        304 => "Not Modified",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "",
    }
}
