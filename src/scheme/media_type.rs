//! Internet media types (`dcterms:IMT`): `type/subtype`, optionally with `; name=value` parameters.

const TOP_LEVEL: [&str; 10] = [
    "application",
    "audio",
    "example",
    "font",
    "haptics",
    "image",
    "message",
    "model",
    "multipart",
    "text",
];

/// A token as RFC 6838 restricts names: letters, digits and `!#$&-^_.+`, starting with a letter or digit.
fn token(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.len() <= 127
        && chars.all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+".contains(c))
}

pub fn parse_media_type(text: &str) -> Result<(), String> {
    let mut parts = text.split(';');
    let essence = parts.next().unwrap_or("").trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return Err(format!(
            "`{text}` is not a media type: expected `type/subtype`, such as `image/png`"
        ));
    };
    if !TOP_LEVEL.iter().any(|t| t.eq_ignore_ascii_case(kind))
        && !kind.to_ascii_lowercase().starts_with("x-")
    {
        return Err(format!(
            "`{kind}` is not a media type's top-level type (expected one of: {})",
            TOP_LEVEL.join(", ")
        ));
    }
    if !token(subtype) {
        return Err(format!("`{subtype}` is not a valid media subtype"));
    }
    for parameter in parts {
        let parameter = parameter.trim();
        match parameter.split_once('=') {
            Some((name, value)) if token(name.trim()) && !value.trim().is_empty() => {}
            _ => return Err(format!("`{parameter}` is not a `name=value` parameter")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types() {
        for ok in [
            "image/png",
            "text/plain; charset=utf-8",
            "application/vnd.oasis.opendocument.text",
            "image/svg+xml",
        ] {
            assert!(parse_media_type(ok).is_ok(), "{ok}");
        }
        for bad in [
            "png",
            "picture/png",
            "image/",
            "image/p ng",
            "text/plain; charset",
        ] {
            assert!(parse_media_type(bad).is_err(), "{bad}");
        }
    }
}
