//! Reading JSON with positions. serde_json parses; every object is read as its keys in order with each value
//! left raw (`RawValue`, a slice of the input), so a value's place in the file is where its slice starts, and a
//! key's is found just before its value. Messages then point at the line and column of the very key or value.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::source::Span;

/// A JSON object: its keys in the order written, each with its raw value.
pub struct Object<'a>(pub Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'a> Object<'a> {
    pub fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Object<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = Object<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Object<'de>, M::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<Cow<'de, str>, &'de RawValue>()? {
                    out.push((k, v));
                }
                Ok(Object(out))
            }
        }
        deserializer.deserialize_map(Keys)
    }
}

/// Where a raw value lies in `text`, the whole input it was read from.
pub fn span(text: &str, raw: &RawValue) -> Span {
    let slice = raw.get();
    let start = (slice.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    start.min(text.len())..(start + slice.len()).min(text.len())
}

/// Where the key of a raw value lies: the quoted string before the `:` that precedes the value.
pub fn key_span(text: &str, raw: &RawValue) -> Span {
    let value = span(text, raw);
    let before = text[..value.start].trim_end();
    let Some(before) = before.strip_suffix(':') else {
        return value;
    };
    let before = before.trim_end();
    let Some(inner) = before.strip_suffix('"') else {
        return value;
    };
    let end = inner.len() + 1;
    // Keys in Omeka's JSON hold no escaped quotes; a key that did would be pointed at from its last quote.
    match inner.rfind('"') {
        Some(start) => start..end,
        None => value,
    }
}

/// The value as an object, or `None` when it is something else.
pub fn object(raw: &RawValue) -> Option<Object<'_>> {
    serde_json::from_str(raw.get()).ok()
}

/// The value as an array of raw values, or `None` when it is something else.
pub fn array(raw: &RawValue) -> Option<Vec<&RawValue>> {
    serde_json::from_str(raw.get()).ok()
}

/// The value as text: a string as it is, a number or a boolean as written; `None` for null, arrays and objects.
pub fn text(raw: &RawValue) -> Option<String> {
    match serde_json::from_str::<serde_json::Value>(raw.get()).ok()? {
        serde_json::Value::String(s) => Some(s),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_values_keep_their_places() {
        let input = "{\n  \"dcterms:title\" : [ {\"@value\": \"Terhuchu\"} ],\n  \"o:id\": 7\n}";
        let root: &RawValue = serde_json::from_str(input).unwrap();
        let object = object(root).unwrap();
        let keys: Vec<&str> = object.0.iter().map(|(k, _)| k.as_ref()).collect();
        assert_eq!(keys, ["dcterms:title", "o:id"]);
        let title = object.get("dcterms:title").unwrap();
        assert_eq!(&input[key_span(input, title)], "\"dcterms:title\"");
        assert_eq!(&input[span(input, title)], "[ {\"@value\": \"Terhuchu\"} ]");
        assert_eq!(text(object.get("o:id").unwrap()).as_deref(), Some("7"));
    }
}
