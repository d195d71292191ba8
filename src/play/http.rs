//! The HTTP subset `zogkit play` speaks, pure: a request head parsed with `httparse` within
//! fixed bounds, the loopback `Host` and `Origin` checks, and responses written as bytes.

/// The most bytes a request head (request line and headers) may have.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most bytes a request body may have (a move, or a saved game to load).
pub const MAX_BODY: usize = 1024 * 1024;
/// The most headers a request may have.
const MAX_HEADERS: usize = 64;

/// A parsed request head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// `GET`, `POST`, …
    pub method: String,
    /// The request target (`/api/moves`), query included.
    pub target: String,
    /// Bytes of the head, so the body starts there in the buffer read.
    pub len: usize,
    /// `Content-Length` (0 when absent).
    pub body_len: usize,
    /// The `Host` header.
    pub host: Option<String>,
    /// The `Origin` header.
    pub origin: Option<String>,
}

/// A response: status, content type, body, and extra headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// HTTP status code.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// Extra headers (name, value).
    pub headers: Vec<(&'static str, String)>,
}

impl Response {
    /// A JSON response.
    pub fn json(status: u16, value: &serde_json::Value) -> Response {
        Response {
            status,
            content_type: "application/json; charset=utf-8",
            body: value.to_string().into_bytes(),
            headers: Vec::new(),
        }
    }

    /// A JSON error `{"error": message}`.
    pub fn error(status: u16, message: impl Into<String>) -> Response {
        Response::json(status, &serde_json::json!({ "error": message.into() }))
    }

    /// Other content.
    pub fn bytes(content_type: &'static str, body: Vec<u8>) -> Response {
        Response {
            status: 200,
            content_type,
            body,
            headers: Vec::new(),
        }
    }

    /// The response as bytes on the wire (the connection closes after it). Every response
    /// forbids caching, sniffing, framing and scripts from elsewhere.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
             Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
             X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n\
             Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'; \
             img-src 'self'; frame-ancestors 'none'\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        for (k, v) in &self.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let mut out = head.into_bytes();
        out.extend_from_slice(&self.body);
        out
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// What reading a head found so far.
#[derive(Debug)]
pub enum Parsed {
    /// The head is complete.
    Head(Head),
    /// More bytes are needed (the buffer is within [`MAX_HEAD`]).
    Partial,
    /// The request is refused: answer this and close.
    Refused(Response),
}

/// Parses the request head at the start of `buf` (the bytes read so far).
pub fn parse_head(buf: &[u8]) -> Parsed {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    let len = match req.parse(buf) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) if buf.len() >= MAX_HEAD => {
            return Parsed::Refused(Response::error(431, "request head too large"));
        }
        Ok(httparse::Status::Partial) => return Parsed::Partial,
        Err(httparse::Error::TooManyHeaders) => {
            return Parsed::Refused(Response::error(431, "too many headers"));
        }
        Err(e) => return Parsed::Refused(Response::error(400, format!("bad request: {e}"))),
    };
    if len > MAX_HEAD {
        return Parsed::Refused(Response::error(431, "request head too large"));
    }
    let mut head = Head {
        method: req.method.unwrap_or_default().to_string(),
        target: req.path.unwrap_or_default().to_string(),
        len,
        body_len: 0,
        host: None,
        origin: None,
    };
    let mut lengths = 0;
    for h in req.headers.iter() {
        let value = || String::from_utf8_lossy(h.value).trim().to_string();
        if h.name.eq_ignore_ascii_case("content-length") {
            lengths += 1;
            match value().parse::<usize>() {
                Ok(n) if n <= MAX_BODY => head.body_len = n,
                Ok(_) => {
                    return Parsed::Refused(Response::error(
                        413,
                        format!("request body over {MAX_BODY} bytes"),
                    ));
                }
                Err(_) => return Parsed::Refused(Response::error(400, "bad Content-Length")),
            }
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            return Parsed::Refused(Response::error(
                411,
                "Transfer-Encoding is not accepted; send Content-Length",
            ));
        } else if h.name.eq_ignore_ascii_case("host") {
            if head.host.is_some() {
                return Parsed::Refused(Response::error(400, "more than one Host header"));
            }
            head.host = Some(value());
        } else if h.name.eq_ignore_ascii_case("origin") {
            head.origin = Some(value());
        }
    }
    if lengths > 1 {
        return Parsed::Refused(Response::error(400, "more than one Content-Length header"));
    }
    Parsed::Head(head)
}

/// Whether `host` (a `Host` header) names this server on loopback: `127.0.0.1:PORT` or
/// `localhost:PORT`. Any other name is refused, so a page of another site whose name was made
/// to resolve to 127.0.0.1 (DNS rebinding) cannot talk to the server.
pub fn host_allowed(host: &str, port: u16) -> bool {
    let host = host.to_ascii_lowercase();
    [format!("127.0.0.1:{port}"), format!("localhost:{port}")].contains(&host)
}

/// Whether `origin` (an `Origin` header, when the browser sent one) is this server's own page;
/// every other origin (another site's script, `null` from a sandbox or a file) is refused.
pub fn origin_allowed(origin: &str, port: u16) -> bool {
    let origin = origin.to_ascii_lowercase();
    [
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
    ]
    .contains(&origin)
}

/// The checks every request passes before it reaches the session: the `Host` and `Origin`
/// headers name this server; `None` when it may go on.
pub fn refuse(head: &Head, port: u16) -> Option<Response> {
    match &head.host {
        None => return Some(Response::error(400, "no Host header")),
        Some(h) if !host_allowed(h, port) => {
            return Some(Response::error(
                403,
                format!(
                    "Host {:?} is not this server (use http://127.0.0.1:{port}/)",
                    crate::text::shorten(h, 80)
                ),
            ));
        }
        Some(_) => {}
    }
    match &head.origin {
        Some(o) if !origin_allowed(o, port) => Some(Response::error(
            403,
            format!(
                "requests from {:?} are refused",
                crate::text::shorten(o, 80)
            ),
        )),
        _ => None,
    }
}
