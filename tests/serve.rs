//! `ludotheca serve` as the archivist uses it: started on a free loopback port, it serves the built site; an
//! edited record is served rebuilt within a second; a broken one leaves the last good site with the
//! diagnostics over every page, and the fix brings the page back; open pages hear of each change on the event
//! stream; Ctrl-C stops it with exit code 0. Also: nothing outside the site is ever served (traversal in every
//! spelling is a 404), content types, methods, folders; and thousands of requests from several threads at once
//! are all answered correctly; idle connections and open event streams hold up no other request; requests that
//! are too large or not HTTP are refused.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A server started for one test, stopped (by SIGINT, as Ctrl-C does) when dropped if the test did not.
struct Server {
    child: Child,
    address: SocketAddr,
}

/// `ludotheca serve` of `catalog` into `out`, on a port the system picks.
fn serve(catalog: &Path, out: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ludotheca"));
    command
        .args(["serve", "--port", "0", "--catalog"])
        .arg(catalog)
        .arg("--out")
        .arg(out);
    command
}

impl Server {
    fn start(catalog: &Path, out: &Path) -> Server {
        let mut child = serve(catalog, out)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the ludotheca binary runs");
        let address = listening_at(&mut child);
        Server { child, address }
    }

    /// Ctrl-C, then the exit code.
    fn interrupt(mut self) -> Option<i32> {
        signal(&self.child, libc::SIGINT);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().expect("the server can be waited for") {
                return status.code();
            }
            assert!(Instant::now() < deadline, "serve did not stop on SIGINT");
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            signal(&self.child, libc::SIGINT);
            thread::sleep(Duration::from_millis(300));
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The address a starting server prints on standard output once its first build is done and it listens.
fn listening_at(child: &mut Child) -> SocketAddr {
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("serve prints its address");
    line.split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
}

fn signal(child: &Child, signal: libc::c_int) {
    // SAFETY: sends a signal to our own child process, by its id; no memory is involved.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
}

struct Reply {
    status: u16,
    headers: BTreeMap<String, String>,
    body: Vec<u8>,
}

impl Reply {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One request on its own connection, written as given (so that a path reaches the server unnormalised).
fn request(address: SocketAddr, method: &str, target: &str) -> Reply {
    exchange(
        address,
        format!("{method} {target} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    )
}

/// Bytes sent as they are on a connection of their own, and the one response the server sends before it closes.
fn exchange(address: SocketAddr, sent: &[u8]) -> Reply {
    exchange_on(
        TcpStream::connect(address).expect("the server accepts"),
        sent,
    )
}

fn exchange_on(mut stream: TcpStream, sent: &[u8]) -> Reply {
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream.write_all(sent).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("a whole response");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let (status, headers) = parse_head(&String::from_utf8_lossy(&raw[..split]));
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

fn parse_head(head: &str) -> (u16, BTreeMap<String, String>) {
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers)
}

/// The next response on a connection kept open, framed by its length (a HEAD's has no body).
fn next_reply(reader: &mut BufReader<TcpStream>, head_only: bool) -> Reply {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a response head");
        assert!(!line.is_empty(), "the connection closed before a response");
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let (status, headers) = parse_head(&head);
    let length = if head_only {
        0
    } else {
        headers["content-length"].parse().expect("a length")
    };
    let mut body = vec![0; length];
    reader.read_exact(&mut body).expect("the whole body");
    Reply {
        status,
        headers,
        body,
    }
}

fn get(address: SocketAddr, target: &str) -> Reply {
    request(address, "GET", target)
}

fn shipped_catalog(into: &Path) -> PathBuf {
    let catalog = into.join("catalog");
    common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog"),
        &catalog,
    );
    catalog
}

/// A server on a copy of the shipped catalog, in a folder of its own that holds the site too.
fn serve_shipped() -> (tempfile::TempDir, Server) {
    let dir = tempfile::tempdir().unwrap();
    let catalog = shipped_catalog(dir.path());
    let server = Server::start(&catalog, &dir.path().join("site"));
    (dir, server)
}

/// Ask for the event stream on `stream`, as an open page does. Each version it names arrives on the channel,
/// and `None` once the server ends the stream.
fn follow_events(mut stream: TcpStream, address: SocketAddr) -> mpsc::Receiver<Option<String>> {
    write!(
        stream,
        "GET /__ludotheca/events HTTP/1.1\r\nHost: {address}\r\n\r\n"
    )
    .unwrap();
    let (events_tx, events) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if let Some(data) = line.strip_prefix("data: ") {
                let _ = events_tx.send(Some(data.to_string()));
            }
        }
        let _ = events_tx.send(None);
    });
    events
}

/// Poll `target` until `done` holds for its reply; how long that took.
fn wait_for(
    address: SocketAddr,
    target: &str,
    within: Duration,
    done: impl Fn(&Reply) -> bool,
) -> Duration {
    let started = Instant::now();
    loop {
        let reply = get(address, target);
        if done(&reply) {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < within,
            "{target} did not change within {within:?}; last reply:\n{}",
            reply.text()
        );
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn edits_are_served_rebuilt_broken_ones_show_their_diagnostics_and_ctrl_c_stops() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = shipped_catalog(dir.path());
    let out = dir.path().join("site");
    let server = Server::start(&catalog, &out);
    let address = server.address;
    assert!(address.ip().is_loopback());

    let page = "/games/bagh-chal/index.html";
    let first = get(address, page);
    assert_eq!(first.status, 200);
    assert!(first.text().contains("<h1>Bagh-Chal</h1>"));
    // The live script is added to the page sent, never to the file on disk.
    assert!(
        first
            .text()
            .contains("<script src=\"/__ludotheca/live.js\"")
    );
    let on_disk = fs::read_to_string(out.join("games/bagh-chal/index.html")).unwrap();
    assert!(!on_disk.contains("__ludotheca"));

    // An open page's event stream: the current version first, then one per change.
    let events = follow_events(TcpStream::connect(address).unwrap(), address);
    let next_event = || {
        events
            .recv_timeout(Duration::from_secs(5))
            .unwrap()
            .expect("a version")
    };
    let version = next_event();

    let record = catalog.join("games/bagh-chal/record.xml");
    let original = fs::read_to_string(&record).unwrap();
    let edited = original.replace(
        "<dcterms:title>Bagh-Chal</dcterms:title>",
        "<dcterms:title>Bagh-Chal of the valley</dcterms:title>",
    );
    assert_ne!(edited, original);
    fs::write(&record, &edited).unwrap();
    wait_for(address, page, Duration::from_secs(1), |r| {
        r.text().contains("<h1>Bagh-Chal of the valley</h1>")
    });
    // The items' pages come first: the stream names the new build and the pages it changed, so that the
    // edited page reloads and pages the edit did not touch stay as they are.
    let next = next_event();
    assert_ne!(next, version, "the stream names the new build");
    let changed: Vec<&str> = next.split(' ').skip(1).collect();
    assert!(changed.contains(&page), "{next}");
    assert!(!changed.contains(&"*"), "{next}");
    assert!(!changed.contains(&"/about/index.html"), "{next}");
    // Then the rest of the site: the browse page lists the item by its new title.
    let rest = next_event();
    assert!(rest.split(' ').any(|p| p == "/browse/index.html"), "{rest}");
    assert!(
        get(address, "/browse/index.html")
            .text()
            .contains("Bagh-Chal of the valley")
    );

    // Broken: the last good page is still served, with the diagnostics over it, as `check` prints them.
    let broken = edited.replace(
        "<dcterms:title>Bagh-Chal of the valley</dcterms:title>",
        "<dcterms:titel>Bagh-Chal of the valley</dcterms:titel>",
    );
    fs::write(&record, &broken).unwrap();
    wait_for(address, page, Duration::from_secs(5), |r| {
        r.text().contains("id=\"ludotheca-overlay\"")
    });
    let shown = get(address, page);
    assert_eq!(shown.status, 200);
    let text = shown.text();
    assert!(
        text.contains("<h1>Bagh-Chal of the valley</h1>"),
        "the last good page"
    );
    assert!(
        text.contains("error[E009]: `dcterms:titel` is not a term of the `dcterms` namespace"),
        "{text}"
    );
    assert!(text.contains("games/bagh-chal/record.xml:6:4\n"), "{text}");
    assert!(
        text.contains("6 |   &lt;dcterms:titel&gt;Bagh-Chal of the valley&lt;/dcterms:titel&gt;"),
        "the source line, escaped: {text}"
    );
    assert!(
        text.contains("= help: did you mean `dcterms:title`?"),
        "{text}"
    );
    // Every page carries it, even one the edit does not touch.
    assert!(get(address, "/index.html").text().contains("error[E009]"));
    next_event();

    // Fixed: the overlay goes and the page is the new one.
    fs::write(&record, &original).unwrap();
    wait_for(address, page, Duration::from_secs(5), |r| {
        let text = r.text();
        !text.contains("ludotheca-overlay") && text.contains("<h1>Bagh-Chal</h1>")
    });
    next_event();

    // The site on disk is the one `ludotheca build` writes from the same catalog.
    let built = dir.path().join("built");
    let output = common::ludotheca(&[
        "build",
        "--quiet",
        "--catalog",
        catalog.to_str().unwrap(),
        "--out",
        built.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", common::stderr(&output));
    // The items' pages are rebuilt first and the rest of the site a moment later: wait for that.
    let started = Instant::now();
    while common::site_snapshot(&out) != common::site_snapshot(&built) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the served site differs from a build"
        );
        thread::sleep(Duration::from_millis(50));
    }

    assert_eq!(server.interrupt(), Some(0), "Ctrl-C exits with 0");
}

#[test]
fn only_the_site_is_served_with_its_types_and_thousands_of_requests_all_answered() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = shipped_catalog(dir.path());
    let out = dir.path().join("site");
    fs::write(dir.path().join("secret.txt"), "not for the web").unwrap();
    // The catalog's own static files are copied into the site's `static/`.
    fs::create_dir_all(catalog.join("static")).unwrap();
    fs::write(catalog.join("static/notes.txt"), "notes").unwrap();
    fs::write(catalog.join("static/tiny.wasm"), b"\0asm\x01\0\0\0").unwrap();
    let server = Server::start(&catalog, &out);
    let address = server.address;

    for target in [
        "/../secret.txt",
        "/games/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",
        "/%2e%2e%2fsecret.txt",
        "/games/%2e%2e/%2e%2e/secret.txt",
        "/..%5csecret.txt",
        "/games\\..\\..\\secret.txt",
        "/%5c..%5csecret.txt",
        "//etc/passwd",
        "/%2fetc%2fpasswd",
        &format!("/{}", dir.path().join("secret.txt").display()),
        "/C:/Windows/win.ini",
        "http://localhost/../secret.txt",
        "/.ludotheca-manifest",
        "/games/",
        "/no-such-page.html",
    ] {
        let reply = get(address, target);
        assert_eq!(reply.status, 404, "{target}");
        assert!(!reply.text().contains("not for the web"), "{target}");
    }
    // A link inside the site leading out of it is not followed.
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), out.join("leak.txt")).unwrap();
    assert_eq!(get(address, "/leak.txt").status, 404);

    for (target, kind) in [
        ("/", "text/html; charset=utf-8"),
        ("/games/terhuchu/", "text/html; charset=utf-8"),
        ("/static/style.css", "text/css; charset=utf-8"),
        ("/static/search.js", "text/javascript; charset=utf-8"),
        ("/catalog.json", "application/json"),
        ("/catalog.csv", "text/csv; charset=utf-8"),
        ("/sitemap.xml", "application/xml"),
        ("/static/notes.txt", "text/plain; charset=utf-8"),
        ("/static/tiny.wasm", "application/wasm"),
        ("/games/terhuchu/terhuchu.zip", "application/zip"),
    ] {
        let reply = get(address, target);
        assert_eq!(reply.status, 200, "{target}");
        assert_eq!(reply.headers["content-type"], kind, "{target}");
    }
    let svg = fs::read_dir(out.join("diagrams"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    let reply = get(address, &format!("/diagrams/{}", svg.to_string_lossy()));
    assert_eq!(reply.headers["content-type"], "image/svg+xml");

    // A folder without its slash is redirected, so that its page's relative links resolve.
    let reply = get(address, "/games/terhuchu?x=1");
    assert_eq!(reply.status, 301);
    assert_eq!(reply.headers["location"], "/games/terhuchu/?x=1");
    // HEAD: the head only; other methods: 405.
    let head = request(address, "HEAD", "/static/style.css");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(
        head.headers["content-length"],
        fs::metadata(out.join("static/style.css"))
            .unwrap()
            .len()
            .to_string()
    );
    for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
        let reply = request(address, method, "/index.html");
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.headers["allow"], "GET, HEAD");
    }

    // Load: several client threads, a few thousand requests, every one answered in full.
    let targets: Vec<String> = [
        "/",
        "/games/terhuchu/index.html",
        "/static/style.css",
        "/static/engine.js",
        "/catalog.json",
        "/browse/index.html",
        "/nothing-here.html",
    ]
    .iter()
    .map(|t| t.to_string())
    .collect();
    let expected: Vec<(u16, Vec<u8>)> = targets
        .iter()
        .map(|t| {
            let r = get(address, t);
            (r.status, r.body)
        })
        .collect();
    let threads = 8;
    let per_thread = 400;
    let started = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let targets = targets.clone();
            let expected = expected.clone();
            thread::spawn(move || {
                for i in 0..per_thread {
                    let k = (i + t) % targets.len();
                    let reply = get(address, &targets[k]);
                    assert_eq!(
                        (reply.status, reply.body.len()),
                        (expected[k].0, expected[k].1.len()),
                        "{}",
                        targets[k]
                    );
                    assert!(reply.body == expected[k].1, "{}", targets[k]);
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().expect("every request answered correctly");
    }
    eprintln!(
        "{} requests from {threads} threads in {:?}",
        threads * per_thread,
        started.elapsed()
    );
    assert_eq!(server.interrupt(), Some(0));
}

/// Right after it starts, the server is sent what a browser sends: several connections at once, some of them
/// speculative ones that send nothing for a while, and a page's event stream, held open. Every page asked for
/// meanwhile is answered at once; idle connections are closed after a few seconds; connections are kept alive
/// between requests (pipelined ones too); and Ctrl-C ends every connection still open, promptly.
#[test]
fn idle_connections_and_event_streams_hold_up_no_request() {
    let (dir, server) = serve_shipped();
    let address = server.address;

    // As a browser does, all at once: the connections are made back to back before any sends a byte, the
    // silent ones around those that will ask for pages and (the first time) the event stream. Three times, as
    // a few pages opened one after the other would, each finding the server with other connections open.
    let connect = || TcpStream::connect(address).expect("the server accepts");
    let mut idle: Vec<TcpStream> = Vec::new();
    let mut events = None;
    for round in 0..3 {
        idle.extend((0..4).map(|_| connect()));
        let pages: Vec<(&str, TcpStream)> = [
            "/",
            "/games/bagh-chal/index.html",
            "/static/style.css",
            "/static/search.js",
            "/static/engine.js",
            "/__ludotheca/live.js",
        ]
        .into_iter()
        .map(|target| (target, connect()))
        .collect();
        let stream = (round == 0).then(connect);
        idle.extend((0..4).map(|_| connect()));

        let started = Instant::now();
        if let Some(stream) = stream {
            events = Some(follow_events(stream, address));
        }
        let fetches: Vec<_> = pages
            .into_iter()
            .map(|(target, stream)| {
                thread::spawn(move || {
                    let sent = format!(
                        "GET {target} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
                    );
                    (target, exchange_on(stream, sent.as_bytes()).status)
                })
            })
            .collect();
        for fetch in fetches {
            let (target, status) = fetch.join().unwrap();
            assert_eq!(status, 200, "{target}");
        }
        if let (0, Some(events)) = (round, &events) {
            let version = events.recv_timeout(Duration::from_secs(5)).unwrap();
            assert!(version.is_some(), "the event stream names the version");
        }
        let took = started.elapsed();
        assert!(
            took < Duration::from_secs(5),
            "round {round}: six pages took {took:?} beside silent connections"
        );
    }
    let events = events.expect("the event stream was asked for");

    // Kept alive: two requests on one connection, then two more sent at once.
    let mut kept = TcpStream::connect(address).unwrap();
    kept.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut reader = BufReader::new(kept.try_clone().unwrap());
    let style = fs::read(dir.path().join("site/static/style.css")).unwrap();
    write!(
        kept,
        "HEAD /static/style.css HTTP/1.1\r\nHost: {address}\r\n\r\n"
    )
    .unwrap();
    let head = next_reply(&mut reader, true);
    assert_eq!(head.status, 200);
    assert_eq!(head.headers["content-length"], style.len().to_string());
    assert!(!head.headers.contains_key("connection"));
    write!(
        kept,
        "GET /static/style.css HTTP/1.1\r\nHost: {address}\r\n\r\n"
    )
    .unwrap();
    assert!(next_reply(&mut reader, false).body == style);
    write!(
        kept,
        "GET /no-such-page HTTP/1.1\r\nHost: {address}\r\n\r\n\
         GET /static/style.css HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    assert_eq!(next_reply(&mut reader, false).status, 404);
    let last = next_reply(&mut reader, false);
    assert_eq!(last.headers["connection"], "close");
    assert!(last.body == style);
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty(), "the connection closes after the last");

    // The speculative connections, still silent, are closed by the server after a few seconds.
    let mut silent = &idle[0];
    silent
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let waited = Instant::now();
    assert_eq!(silent.read(&mut [0; 16]).unwrap_or(0), 0);
    assert!(waited.elapsed() < Duration::from_secs(15));

    // Ctrl-C with an event stream, a connection waiting for its next request and fresh silent ones open.
    let mut waiting = TcpStream::connect(address).unwrap();
    waiting
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(waiting, "GET / HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    assert_eq!(
        next_reply(&mut BufReader::new(waiting.try_clone().unwrap()), false).status,
        200
    );
    let _silent: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(address).unwrap())
        .collect();
    thread::sleep(Duration::from_millis(100));
    let stopping = Instant::now();
    assert_eq!(server.interrupt(), Some(0));
    let took = stopping.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "the stop took {took:?} with connections open"
    );
    assert_eq!(
        events.recv_timeout(Duration::from_secs(5)).unwrap(),
        None,
        "the event stream ends"
    );
    assert_eq!(waiting.read(&mut [0; 16]).unwrap_or(0), 0);
}

/// Requests that are not HTTP get 400, a head over 16 KiB or with too many fields 431, a request with a body
/// its answer before its connection closes; and the server goes on answering.
#[test]
fn oversized_and_malformed_requests_are_refused() {
    let (_dir, server) = serve_shipped();
    let address = server.address;

    let big = format!(
        "GET / HTTP/1.1\r\nHost: {address}\r\nX-Padding: {}\r\n\r\n",
        "a".repeat(20 * 1024)
    );
    let reply = exchange(address, big.as_bytes());
    assert_eq!(reply.status, 431);
    assert_eq!(reply.headers["connection"], "close");
    // Just under the limit is a request like any other.
    let fits = format!(
        "GET / HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nX-Padding: {}\r\n\r\n",
        "a".repeat(15 * 1024)
    );
    assert_eq!(exchange(address, fits.as_bytes()).status, 200);
    let many: String = (0..100).map(|i| format!("X-Field-{i}: {i}\r\n")).collect();
    let reply = exchange(
        address,
        format!("GET / HTTP/1.1\r\nHost: {address}\r\n{many}\r\n").as_bytes(),
    );
    assert_eq!(reply.status, 431);

    // The last is the start of a TLS handshake, sent to the plain port.
    let malformed: [&[u8]; 9] = [
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET / SPDY/3\r\n\r\n",
        b"GET /a b HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
        b"GET / HTTP/1.1\r\nHo st: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nContent-Length: twelve\r\n\r\n",
        b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
    ];
    for sent in malformed {
        let reply = exchange(address, sent);
        let sent = String::from_utf8_lossy(sent);
        assert_eq!(reply.status, 400, "{sent:?}");
        assert_eq!(reply.headers["connection"], "close", "{sent:?}");
    }

    // A body, which no method served has a use for: the answer, whole, then the connection closes.
    let reply = exchange(
        address,
        format!("POST /index.html HTTP/1.1\r\nHost: {address}\r\nContent-Length: 5\r\n\r\nhello")
            .as_bytes(),
    );
    assert_eq!(reply.status, 405);
    assert_eq!(reply.headers["connection"], "close");
    assert_eq!(reply.text(), "Only GET and HEAD are served.\n");
    let reply = exchange(
        address,
        format!("GET / HTTP/1.1\r\nHost: {address}\r\nContent-Length: 3\r\n\r\nabc").as_bytes(),
    );
    assert_eq!(reply.status, 200);
    assert_eq!(reply.headers["connection"], "close");
    // HTTP/1.0 closes after the answer.
    let reply = exchange(address, b"GET /static/style.css HTTP/1.0\r\n\r\n");
    assert_eq!(reply.status, 200);
    assert_eq!(reply.headers["content-type"], "text/css; charset=utf-8");

    assert_eq!(get(address, "/").status, 200);
    assert_eq!(server.interrupt(), Some(0));
}

/// Reading the catalog is not a change: tens of thousands of files opened (more than the kernel's queue of
/// file events holds by default, as a build of a large catalog opens) start no build, and an edit afterwards
/// still does. On an idle machine a watcher that is told of every opened file keeps up with this loop too; the
/// unit test of the watcher's event mask (src/serve/mod.rs) is what holds the kernel to changes only.
#[test]
fn reading_the_catalog_starts_no_build() {
    let (dir, server) = serve_shipped();
    let address = server.address;
    let events = follow_events(TcpStream::connect(address).unwrap(), address);
    let first = events
        .recv_timeout(Duration::from_secs(10))
        .unwrap()
        .expect("the current version");
    let catalog = dir.path().join("catalog");
    let files: Vec<PathBuf> = walkdir::WalkDir::new(&catalog)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    for n in 0..40_000 {
        let mut text = Vec::new();
        fs::File::open(&files[n % files.len()])
            .unwrap()
            .read_to_end(&mut text)
            .unwrap();
    }
    assert_eq!(
        events.recv_timeout(Duration::from_secs(2)),
        Err(mpsc::RecvTimeoutError::Timeout),
        "reading files started a build (the current version was {first})"
    );
    let record = catalog.join("games/bagh-chal/record.xml");
    let text = fs::read_to_string(&record).unwrap();
    fs::write(
        &record,
        text.replacen("</dcterms:title>", " again</dcterms:title>", 1),
    )
    .unwrap();
    let next = events
        .recv_timeout(Duration::from_secs(10))
        .unwrap()
        .expect("a version after the edit");
    assert_ne!(next, first);
}

/// A record edited while the first build runs, after the build has read it, is served as edited: watching
/// starts before the first build reads anything, so the edit is reported once the build is done.
#[test]
fn an_edit_made_while_the_first_build_runs_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = shipped_catalog(dir.path());
    let out = dir.path().join("site");
    let record = catalog.join("games/bagh-chal/record.xml");
    let original = fs::read_to_string(&record).unwrap();
    let edited = original.replace(
        "<dcterms:title>Bagh-Chal</dcterms:title>",
        "<dcterms:title>Bagh-Chal, edited while built</dcterms:title>",
    );
    assert_ne!(edited, original);
    let mut child = serve(&catalog, &out)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the ludotheca binary runs");
    // The build's staging folder appears once the catalog is loaded and checked, every record read, and
    // goes when the site is swapped in. Should a busy machine hide it from this loop, the edit is made after
    // the build instead, which any server serves.
    let staging = dir
        .path()
        .join(format!(".site.ludotheca-tmp-{}", child.id()));
    let deadline = Instant::now() + Duration::from_secs(60);
    while !staging.exists() && !out.exists() {
        assert!(Instant::now() < deadline, "the first build never began");
        thread::sleep(Duration::from_micros(200));
    }
    fs::write(&record, &edited).unwrap();
    let address = listening_at(&mut child);
    let _server = Server { child, address };
    wait_for(
        address,
        "/games/bagh-chal/index.html",
        Duration::from_secs(20),
        |r| r.text().contains("<h1>Bagh-Chal, edited while built</h1>"),
    );
}

/// `--timings` gives each build's steps, and the memory the server holds after it: what it keeps between
/// builds grows with the catalog, and this is where an archivist sees how much.
#[test]
fn timings_give_each_builds_steps_and_the_memory_held() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = shipped_catalog(dir.path());
    let mut child = serve(&catalog, &dir.path().join("site"))
        .arg("--timings")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ludotheca binary runs");
    let stderr = child.stderr.take().expect("stderr is piped");
    // Stopped by Drop whatever the assertions find.
    let _server = Server {
        child,
        address: "127.0.0.1:0".parse().unwrap(),
    };
    let said = BufReader::new(stderr)
        .lines()
        .map_while(Result::ok)
        .find(|line| line.starts_with("built in"))
        .expect("the first build is reported");
    for step in ["(load ", ", check ", ", resolve ", ", render ", ", swap "] {
        assert!(said.contains(step), "no {step:?} in {said:?}");
    }
    if cfg!(target_os = "linux") {
        // "... swap 1.8 ms; 25 MB held, 25 MB at most): ..."
        let held = said
            .split_once("ms; ")
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(held, _)| held)
            .unwrap_or_else(|| panic!("no memory in {said:?}"));
        assert!(
            held.contains(" MB held, ") && held.ends_with(" MB at most"),
            "{said:?}"
        );
        let numbers: Vec<u64> = held
            .split(' ')
            .filter_map(|word| word.parse().ok())
            .collect();
        assert_eq!(numbers.len(), 2, "held and at most in {said:?}");
        assert!(
            numbers[0] > 0 && numbers[0] <= numbers[1],
            "held no more than at most, in {said:?}"
        );
    }
}

/// A page reloading after a build asks again with the versions it holds: what did not change is answered 304
/// without a body, what changed in full with its new version.
#[test]
fn files_the_browser_holds_are_not_sent_again() {
    let (dir, server) = serve_shipped();
    let address = server.address;
    let conditional = |target: &str, tag: &str| {
        exchange(
            address,
            format!(
                "GET {target} HTTP/1.1\r\nHost: {address}\r\nIf-None-Match: {tag}\r\nConnection: close\r\n\r\n"
            )
            .as_bytes(),
        )
    };
    for target in ["/static/engine.js", "/games/bagh-chal/index.html"] {
        let first = get(address, target);
        assert_eq!(first.status, 200, "{target}");
        let tag = first.headers.get("etag").expect("an ETag").clone();
        let again = conditional(target, &tag);
        assert_eq!(again.status, 304, "{target}");
        assert!(again.body.is_empty());
        assert!(!again.headers.contains_key("content-length"));
        // Another version named, or a list without this one: the whole file.
        assert_eq!(conditional(target, "\"0000\"").status, 200);
        assert_eq!(conditional(target, &format!("\"0\", W/{tag}")).status, 304);
    }
    // An edit changes the page, so the version the browser holds no longer matches.
    let page = "/games/bagh-chal/index.html";
    let tag = get(address, page).headers["etag"].clone();
    let record = dir.path().join("catalog/games/bagh-chal/record.xml");
    let text = fs::read_to_string(&record).unwrap();
    fs::write(
        &record,
        text.replacen("</dcterms:title>", " edited</dcterms:title>", 1),
    )
    .unwrap();
    wait_for(address, page, Duration::from_secs(10), |r| {
        r.text().contains("Bagh-Chal edited")
    });
    let after = conditional(page, &tag);
    assert_eq!(after.status, 200);
    assert!(after.text().contains("Bagh-Chal edited"));
}

/// Edits that keep coming, faster than the rest of the site waits for them to stop, still reach the lists:
/// the whole site is built at least every few seconds while the items' pages follow each edit.
#[test]
fn the_lists_catch_up_while_edits_keep_coming() {
    let (dir, server) = serve_shipped();
    let address = server.address;
    let record = dir.path().join("catalog/games/bagh-chal/record.xml");
    let original = fs::read_to_string(&record).unwrap();
    let started = Instant::now();
    let mut n = 0;
    let caught_up = loop {
        n += 1;
        fs::write(
            &record,
            original.replace(
                "<dcterms:title>Bagh-Chal</dcterms:title>",
                &format!("<dcterms:title>Bagh-Chal {n}</dcterms:title>"),
            ),
        )
        .unwrap();
        thread::sleep(Duration::from_millis(100));
        let browse = get(address, "/browse/index.html").text();
        if (1..=n).any(|k| browse.contains(&format!(">Bagh-Chal {k}<"))) {
            break true;
        }
        if started.elapsed() > Duration::from_secs(20) {
            break false;
        }
    };
    assert!(
        caught_up,
        "the browse page never showed an edited title while edits came every 100 ms"
    );
}
