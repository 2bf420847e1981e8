//! A `redis-server` of its own, for the fleet tests and `cargo run --example fleet`: on a free
//! loopback port, without persistence (`--save '' --appendonly no`), in a temporary directory
//! of its own; killed when dropped. `.ci/run` installs `redis-server` where it is missing.
//!
//! ```no_run
//! use waiter_tests::redis_server::RedisServer;
//!
//! let mut redis = RedisServer::start().expect("redis-server on the PATH");
//! let url = redis.url(); // redis://127.0.0.1:<port>/0
//! redis.stop(); // killed: its data is gone
//! redis.restart().unwrap(); // a new, empty server on the same port
//! # let _ = url;
//! ```

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `redis-server` (see the module docs).
#[derive(Debug)]
pub struct RedisServer {
    port: u16,
    dir: PathBuf,
    args: Vec<String>,
    /// Whether the port speaks TLS (`--tls-port`).
    tls: bool,
    child: Option<Child>,
}

impl RedisServer {
    /// A server on a free port, with no option of its own.
    pub fn start() -> std::io::Result<Self> {
        Self::with_args(&[])
    }

    /// A server on a free port with `args` added to its command line (`--user ...`, say).
    pub fn with_args(args: &[&str]) -> std::io::Result<Self> {
        Self::launch(args, false)
    }

    /// A server speaking TLS only on a free port (`rediss://`), with the certificate and key
    /// in these PEM files (no client certificate asked for).
    pub fn tls(cert: &std::path::Path, key: &std::path::Path) -> std::io::Result<Self> {
        let (cert, key) = (cert.display().to_string(), key.display().to_string());
        Self::launch(
            &[
                "--tls-cert-file",
                &cert,
                "--tls-key-file",
                &key,
                "--tls-auth-clients",
                "no",
            ],
            true,
        )
    }

    fn launch(args: &[&str], tls: bool) -> std::io::Result<Self> {
        let port = TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port();
        let dir = std::env::temp_dir().join(format!("waiter-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let mut server = RedisServer {
            port,
            dir,
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            tls,
            child: None,
        };
        server.restart()?;
        Ok(server)
    }

    /// The server's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `redis://127.0.0.1:<port>/0`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// Kills the server (SIGKILL: no shutdown, no save) and waits for it to be gone.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts a new, empty server on the same port (stopping the running one first), and
    /// waits until it answers.
    pub fn restart(&mut self) -> std::io::Result<()> {
        self.stop();
        let port = self.port.to_string();
        let ports = if self.tls {
            ["--port", "0", "--tls-port", &port]
        } else {
            ["--port", &port, "--tls-port", "0"]
        };
        let child = Command::new("redis-server")
            .args(ports)
            .args(["--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(&self.dir)
            .args(&self.args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|err| {
                std::io::Error::new(
                    err.kind(),
                    format!("redis-server could not be started ({err}): install it (apt-get install redis-server); .ci/run does"),
                )
            })?;
        self.child = Some(child);
        let start = Instant::now();
        // Up when it answers on its port (`-NOAUTH` counts: a server with ACL users).
        while !self.answers() {
            if start.elapsed() > Duration::from_secs(10) {
                self.stop();
                return Err(std::io::Error::other(
                    "redis-server did not answer within 10 s",
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }

    /// Whether the server answers a `PING` (with `+PONG`, or `-NOAUTH` when it has ACL users);
    /// a TLS server, whether it accepts connections.
    fn answers(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        if self.tls {
            return true;
        }
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        if stream.write_all(b"PING\r\n").is_err() {
            return false;
        }
        let mut line = String::new();
        BufReader::new(stream).read_line(&mut line).is_ok()
            && (line.starts_with("+PONG") || line.starts_with("-NOAUTH"))
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
