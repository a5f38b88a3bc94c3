//! Who may talk to the server: the `Host` and `Origin` of every request checked against the
//! address it serves, as Jupyter does. Binding to loopback is not enough: any web site open in
//! the same browser can send requests to 127.0.0.1, and a site whose name it points at
//! 127.0.0.1 (DNS rebinding) sends them with its own name in `Host`.
//!
//! A request passes when its `Host` names this server (a loopback spelling of its port, the
//! address the connection came in on, or a host of an `--allow-origin`) and its `Origin`, when
//! it has one, is `http://` such a host or an `--allow-origin`. Programs that are not browsers
//! send no `Origin` and pass on their `Host`; a browser always sends one with a WebSocket
//! upgrade and with a `POST`.

use std::net::{IpAddr, SocketAddr};

/// The names of the loopback interface a browser on this machine may use for the server.
const LOOPBACK_NAMES: [&str; 4] = ["localhost", "127.0.0.1", "[::1]", "[::ffff:127.0.0.1]"];

/// The hosts and origins the server answers to.
#[derive(Clone, Debug)]
pub struct Guard {
    /// `host:port` spellings (lowercase) a `Host` header may hold.
    hosts: Vec<String>,
    /// Origins given with `--allow-origin`, lowercase, without a trailing slash.
    origins: Vec<String>,
}

/// Whether `ip` is a loopback address, IPv4 mapped into IPv6 included.
pub fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// `ip:port` as it appears in a `Host` header (IPv6 in brackets), lowercase.
fn host_of(address: SocketAddr) -> String {
    match address.ip() {
        IpAddr::V4(v4) => format!("{v4}:{}", address.port()),
        IpAddr::V6(v6) => format!("[{v6}]:{}", address.port()),
    }
}

/// The `host[:port]` of an origin `scheme://host[:port]`, with the scheme's default port
/// written out; `None` for anything else (a path, a user, no scheme).
fn origin_host(origin: &str) -> Option<String> {
    let (scheme, rest) = origin.split_once("://")?;
    let default_port = match scheme {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    if rest.is_empty() || rest.contains(['/', '@', '?', '#']) {
        return None;
    }
    let has_port = match rest.rfind(':') {
        Some(colon) => !rest[colon..].contains(']'),
        None => false,
    };
    Some(if has_port {
        rest.to_string()
    } else {
        format!("{rest}:{default_port}")
    })
}

/// A `Host` header with its port written out (80 when it has none), lowercase.
fn normal_host(host: &str, default_port: u16) -> String {
    let host = host.trim().to_ascii_lowercase();
    let has_port = match host.rfind(':') {
        Some(colon) => !host[colon..].contains(']'),
        None => false,
    };
    if has_port {
        host
    } else {
        format!("{host}:{default_port}")
    }
}

impl Guard {
    /// The guard of a server listening on `listen`, also answering to each of `allowed`
    /// (origins such as `https://pion.example.org`, for a server behind a proxy).
    pub fn new(listen: SocketAddr, allowed: &[String]) -> Result<Guard, String> {
        let port = listen.port();
        let mut hosts: Vec<String> = LOOPBACK_NAMES
            .iter()
            .map(|name| format!("{name}:{port}"))
            .collect();
        if !listen.ip().is_unspecified() {
            hosts.push(host_of(listen));
        }
        let mut origins = Vec::new();
        for origin in allowed {
            let origin = origin.trim_end_matches('/').to_ascii_lowercase();
            let host = origin_host(&origin).ok_or_else(|| {
                format!(
                    "--allow-origin '{origin}' is not an origin: write scheme://host[:port], e.g. https://pion.example.org"
                )
            })?;
            // A proxy may forward the public name without the port of its scheme.
            if let Some(bare) = host.strip_suffix(":443") {
                hosts.push(format!("{bare}:80"));
            }
            hosts.push(host);
            origins.push(origin);
        }
        Ok(Guard { hosts, origins })
    }

    /// Whether a request with these `Host` and `Origin` headers, come in on the connection's
    /// `local` address, may be served; the error says why not.
    pub fn check(
        &self,
        host: Option<&str>,
        origin: Option<&str>,
        local: SocketAddr,
    ) -> Result<(), String> {
        let local_host = host_of(local);
        let known = |host: &str| host == local_host || self.hosts.iter().any(|h| h == host);
        let Some(host) = host else {
            return Err("a request without a Host header".to_string());
        };
        if !known(&normal_host(host, 80)) {
            return Err(format!(
                "Host '{}' is not this server's",
                host.chars().take(100).collect::<String>()
            ));
        }
        let Some(origin) = origin else {
            return Ok(());
        };
        let normal = origin.trim_end_matches('/').to_ascii_lowercase();
        let same_site =
            normal.starts_with("http://") && origin_host(&normal).is_some_and(|host| known(&host));
        if same_site || self.origins.contains(&normal) {
            Ok(())
        } else {
            Err(format!(
                "Origin '{}' is not this server's (pion-web --allow-origin)",
                origin.chars().take(100).collect::<String>()
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local() -> SocketAddr {
        "127.0.0.1:8080".parse().unwrap()
    }

    fn guard(allowed: &[&str]) -> Guard {
        let allowed: Vec<String> = allowed.iter().map(|s| s.to_string()).collect();
        Guard::new(local(), &allowed).unwrap()
    }

    #[test]
    fn the_servers_own_origin_passes_in_every_loopback_spelling() {
        let g = guard(&[]);
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            let origin = format!("http://{host}");
            assert_eq!(
                g.check(Some(host), Some(&origin), local()),
                Ok(()),
                "{host}"
            );
            assert_eq!(g.check(Some(host), None, local()), Ok(()), "{host}");
        }
    }

    #[test]
    fn other_sites_and_rebound_names_are_refused() {
        let g = guard(&[]);
        let evil = g.check(Some("127.0.0.1:8080"), Some("http://evil.example"), local());
        assert!(evil.unwrap_err().contains("Origin 'http://evil.example'"));
        assert!(
            g.check(Some("127.0.0.1:8080"), Some("null"), local())
                .is_err()
        );
        // The same host on another port, or over https, is another origin.
        assert!(
            g.check(
                Some("127.0.0.1:8080"),
                Some("http://127.0.0.1:9090"),
                local()
            )
            .is_err()
        );
        assert!(
            g.check(
                Some("127.0.0.1:8080"),
                Some("https://127.0.0.1:8080"),
                local()
            )
            .is_err()
        );
        // DNS rebinding: the browser sends the attacker's name as the Host.
        let rebound = g.check(
            Some("evil.example:8080"),
            Some("http://evil.example:8080"),
            local(),
        );
        assert!(rebound.unwrap_err().contains("Host 'evil.example:8080'"));
        assert!(g.check(Some("evil.example"), None, local()).is_err());
        assert!(g.check(None, None, local()).is_err());
    }

    #[test]
    fn an_allowed_origin_passes_with_its_host() {
        let g = guard(&["https://pion.example.org/"]);
        let ok = g.check(
            Some("pion.example.org"),
            Some("https://pion.example.org"),
            local(),
        );
        assert_eq!(ok, Ok(()));
        assert!(
            g.check(
                Some("127.0.0.1:8080"),
                Some("https://other.example.org"),
                local()
            )
            .is_err()
        );
        assert_eq!(
            g.check(
                Some("pion.example.org:443"),
                Some("https://pion.example.org"),
                local()
            ),
            Ok(())
        );
        assert!(Guard::new(local(), &["pion.example.org".to_string()]).is_err());
        assert!(Guard::new(local(), &["http://a.example/path".to_string()]).is_err());
    }

    #[test]
    fn a_public_server_answers_on_the_address_it_was_reached_at() {
        let any: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let g = Guard::new(any, &[]).unwrap();
        let lan: SocketAddr = "192.168.1.20:8080".parse().unwrap();
        let ok = g.check(
            Some("192.168.1.20:8080"),
            Some("http://192.168.1.20:8080"),
            lan,
        );
        assert_eq!(ok, Ok(()));
        assert!(g.check(Some("evil.example:8080"), None, lan).is_err());
    }

    #[test]
    fn mapped_ipv4_loopback_is_loopback() {
        assert!(is_loopback("::ffff:127.0.0.1".parse().unwrap()));
        assert!(is_loopback("::1".parse().unwrap()));
        assert!(is_loopback("127.0.0.2".parse().unwrap()));
        assert!(!is_loopback("::ffff:10.0.0.1".parse().unwrap()));
        assert!(!is_loopback("0.0.0.0".parse().unwrap()));
    }
}
