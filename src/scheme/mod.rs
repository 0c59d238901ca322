//! Encoding schemes (`xsi:type`) and the parsers that validate their values: dates, places, URIs, language
//! tags, media types and the DCMI type vocabulary. Each parser returns the understood value or a message saying
//! what is wrong, without positions; the caller knows where the value is.

pub mod date;
pub mod language;
pub mod media_type;
pub mod place;
pub mod uri;

/// The encoding schemes ludotheca understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    W3cdtf,
    Edtf,
    Period,
    Point,
    Box,
    Uri,
    DcmiType,
    Rfc5646,
    Imt,
}

impl Scheme {
    pub const ALL: [(&'static str, Scheme); 9] = [
        ("W3CDTF", Scheme::W3cdtf),
        ("EDTF", Scheme::Edtf),
        ("Period", Scheme::Period),
        ("Point", Scheme::Point),
        ("Box", Scheme::Box),
        ("URI", Scheme::Uri),
        ("DCMIType", Scheme::DcmiType),
        ("RFC5646", Scheme::Rfc5646),
        ("IMT", Scheme::Imt),
    ];

    /// The scheme named by an `xsi:type` value such as `dcterms:W3CDTF`. The prefix is not resolved (attribute
    /// values carry no namespace context once read); the local name decides.
    pub fn from_xsi_type(value: &str) -> Option<Scheme> {
        let local = value.rsplit(':').next().unwrap_or(value);
        Self::ALL.iter().find(|(n, _)| *n == local).map(|(_, s)| *s)
    }

    /// Is the value a date, a URI or a number, on which a language tag means nothing?
    pub fn is_language_neutral(self) -> bool {
        matches!(
            self,
            Scheme::W3cdtf
                | Scheme::Edtf
                | Scheme::Period
                | Scheme::Point
                | Scheme::Box
                | Scheme::Uri
                | Scheme::Imt
                | Scheme::Rfc5646
                | Scheme::DcmiType
        )
    }

    /// Check a value against the scheme.
    pub fn validate(self, text: &str) -> Result<(), String> {
        match self {
            Scheme::W3cdtf => date::parse_w3cdtf(text).map(drop),
            Scheme::Edtf => date::parse_edtf(text).map(drop),
            Scheme::Period => date::parse_period(text).map(drop),
            Scheme::Point => place::parse_point(text).map(drop),
            Scheme::Box => place::parse_box(text).map(drop),
            Scheme::Uri => uri::parse_uri(text),
            Scheme::DcmiType => parse_dcmi_type(text).map(drop),
            Scheme::Rfc5646 => language::parse_language_tag(text),
            Scheme::Imt => media_type::parse_media_type(text),
        }
    }

    /// The diagnostic code for a value that fails this scheme.
    pub fn error_code(self) -> &'static str {
        match self {
            Scheme::W3cdtf => "E019",
            Scheme::Edtf => "E020",
            Scheme::Period => "E021",
            Scheme::Point => "E022",
            Scheme::Box => "E023",
            Scheme::Uri => "E024",
            Scheme::DcmiType => "E025",
            Scheme::Rfc5646 => "E026",
            Scheme::Imt => "E033",
        }
    }
}

/// The twelve types of the DCMI Type Vocabulary.
pub const DCMI_TYPES: [&str; 12] = [
    "Collection",
    "Dataset",
    "Event",
    "Image",
    "InteractiveResource",
    "MovingImage",
    "PhysicalObject",
    "Service",
    "Software",
    "Sound",
    "StillImage",
    "Text",
];

/// A DCMI type, by name or by its URI.
pub fn parse_dcmi_type(text: &str) -> Result<&'static str, String> {
    let name = text
        .strip_prefix("http://purl.org/dc/dcmitype/")
        .unwrap_or(text);
    DCMI_TYPES
        .iter()
        .find(|t| **t == name)
        .copied()
        .ok_or_else(|| format!("`{text}` is not one of the twelve DCMI types"))
}

/// Split `key=value; key=value` (the DCSV encoding of Period, Point and Box), checking keys against `allowed`.
pub(crate) fn components<'a>(
    text: &'a str,
    allowed: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    for part in text.split(';') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let Some((key, value)) = part.split_once('=') else {
            return Err(format!("`{part}` is not `name=value`"));
        };
        let (key, value) = (key.trim(), value.trim());
        if !allowed.contains(&key) {
            return Err(format!(
                "unknown component `{key}` (expected one of: {})",
                allowed.join(", ")
            ));
        }
        if out.iter().any(|(k, _)| *k == key) {
            return Err(format!("`{key}` is given twice"));
        }
        out.push((key, value));
    }
    if out.is_empty() {
        return Err("no components; write `name=value; ...`".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dcmi_types() {
        assert_eq!(parse_dcmi_type("PhysicalObject"), Ok("PhysicalObject"));
        assert_eq!(
            parse_dcmi_type("http://purl.org/dc/dcmitype/Text"),
            Ok("Text")
        );
        assert!(parse_dcmi_type("Boardgame").is_err());
        assert!(parse_dcmi_type("physicalobject").is_err());
    }

    #[test]
    fn schemes_by_xsi_type() {
        assert_eq!(
            Scheme::from_xsi_type("dcterms:W3CDTF"),
            Some(Scheme::W3cdtf)
        );
        assert_eq!(Scheme::from_xsi_type("dcterms:EDTF"), Some(Scheme::Edtf));
        assert_eq!(Scheme::from_xsi_type("dcterms:Nope"), None);
    }

    #[test]
    fn components_reject_unknown_and_duplicate_keys() {
        assert!(components("a=1; b=2", &["a", "b"]).is_ok());
        assert!(components("a=1; c=2", &["a", "b"]).is_err());
        assert!(components("a=1; a=2", &["a", "b"]).is_err());
        assert!(components(" ; ", &["a"]).is_err());
    }
}
