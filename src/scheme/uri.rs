//! Absolute URIs (RFC 3986): a scheme, a colon, and characters a URI may hold, with `%` escapes well formed.

pub fn parse_uri(text: &str) -> Result<(), String> {
    let Some((scheme, rest)) = text.split_once(':') else {
        return Err(format!(
            "`{text}` is not an absolute URI: it has no scheme (such as `https:`)"
        ));
    };
    let mut chars = scheme.chars();
    let scheme_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Err(format!(
            "`{text}` is not an absolute URI: `{scheme}` is not a scheme"
        ));
    }
    if rest.is_empty() {
        return Err(format!("`{text}` has nothing after the scheme"));
    }
    if let Some(bad) = rest.chars().find(|c| {
        c.is_whitespace()
            || c.is_control()
            || matches!(c, '<' | '>' | '"' | '{' | '}' | '|' | '\\' | '^' | '`')
    }) {
        return Err(format!(
            "`{text}` contains {bad:?}, which a URI cannot hold unescaped"
        ));
    }
    let bytes = rest.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'%'
            && !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
        {
            return Err(format!("`{text}` has a `%` not followed by two hex digits"));
        }
    }
    let hierarchical = matches!(
        scheme.to_ascii_lowercase().as_str(),
        "http" | "https" | "ftp"
    );
    if hierarchical {
        let host = rest
            .strip_prefix("//")
            .map(|r| r.split(['/', '?', '#']).next().unwrap_or(""));
        if host.is_none_or(str::is_empty) {
            return Err(format!(
                "`{text}` has no host (expected `{scheme}://host/...`)"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        for ok in [
            "https://example.org/item/12",
            "http://purl.org/dc/terms/",
            "urn:isbn:0451450523",
            "doi:10.1000/182",
            "mailto:a@b.org",
            "https://x.org/a%20b?q=1#f",
        ] {
            assert!(parse_uri(ok).is_ok(), "{ok}");
        }
        for bad in [
            "example.org",
            "https://",
            "https:///path",
            "http://a b",
            "1http://x",
            "urn:",
            "https://x/%zz",
            "Hunt game",
        ] {
            assert!(parse_uri(bad).is_err(), "{bad}");
        }
    }
}
