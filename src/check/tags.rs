//! A game record's tags as kept after the check: every name and value in one string, with where each ends.
//! Two allocations a record instead of two a tag: a large catalog keeps the tags of every record it holds (a
//! tenth of a million records at 100,000 items), and the strings' own headers and the allocator's rounding
//! took more room than their text.
//!
//! Written and read as the list of `(name, value)` pairs it stands for, so the kept games file does not
//! depend on how they are held.

use std::fmt;

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// Tags in order, as (name, value).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Tags {
    /// Name and value after name and value, with nothing between them.
    text: Box<str>,
    /// Where each name, then its value, ends in `text`: two entries a tag.
    ends: Box<[u32]>,
}

impl Tags {
    /// The tags of `pairs`, in order. A record is far below 4 GiB, the most the ends can count.
    pub fn new<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Tags {
        let mut builder = Builder::default();
        for (name, value) in pairs {
            builder.push(name);
            builder.push(value);
        }
        builder.finish()
    }

    /// Every tag, in order: (name, value).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.ends.chunks_exact(2).scan(0usize, |start, ends| {
            let (name_end, value_end) = (ends[0] as usize, ends[1] as usize);
            let pair = (
                &self.text[*start..name_end],
                &self.text[name_end..value_end],
            );
            *start = value_end;
            Some(pair)
        })
    }

    /// The value of the first tag named `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    fn len(&self) -> usize {
        self.ends.len() / 2
    }
}

impl fmt::Debug for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Tags being gathered, name then value.
#[derive(Default)]
struct Builder {
    text: String,
    ends: Vec<u32>,
}

impl Builder {
    fn push(&mut self, part: &str) {
        self.text.push_str(part);
        self.ends.push(
            u32::try_from(self.text.len())
                .expect("a game record's tags fit in 4 GiB: records are capped"),
        );
    }

    fn finish(self) -> Tags {
        Tags {
            text: self.text.into_boxed_str(),
            ends: self.ends.into_boxed_slice(),
        }
    }
}

impl Serialize for Tags {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for pair in self.iter() {
            seq.serialize_element(&pair)?;
        }
        seq.end()
    }
}

impl<'de> serde::Deserialize<'de> for Tags {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Tags, D::Error> {
        deserializer.deserialize_seq(TagsVisitor)
    }
}

struct TagsVisitor;

impl<'de> Visitor<'de> for TagsVisitor {
    type Value = Tags;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of (name, value) pairs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tags, A::Error> {
        let mut builder = Builder::default();
        // Each pair is read straight into the string: no string of its own for each name and value.
        while seq.next_element_seed(PairSeed(&mut builder))?.is_some() {}
        Ok(builder.finish())
    }
}

/// One (name, value) pair, appended to the builder.
struct PairSeed<'b>(&'b mut Builder);

impl<'de> DeserializeSeed<'de> for PairSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_tuple(2, self)
    }
}

impl<'de> Visitor<'de> for PairSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a (name, value) pair")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        for part in 0..2 {
            if seq.next_element_seed(PartSeed(self.0))?.is_none() {
                return Err(de::Error::invalid_length(part, &self));
            }
        }
        Ok(())
    }
}

/// A name or a value, appended to the builder.
struct PartSeed<'b>(&'b mut Builder);

impl<'de> DeserializeSeed<'de> for PartSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for PartSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tag's name or value")
    }

    fn visit_str<E: de::Error>(self, part: &str) -> Result<(), E> {
        self.0.push(part);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(tags: &Tags) -> Vec<(&str, &str)> {
        tags.iter().collect()
    }

    #[test]
    fn tags_keep_their_order_and_empty_parts() {
        let tags = Tags::new([
            ("Event", "Démo"),
            ("Round", ""),
            ("", "x"),
            ("Event", "second"),
        ]);
        assert_eq!(
            pairs(&tags),
            [
                ("Event", "Démo"),
                ("Round", ""),
                ("", "x"),
                ("Event", "second")
            ]
        );
        assert_eq!(tags.len(), 4);
        assert_eq!(tags.get("Event"), Some("Démo"), "the first of a name");
        assert_eq!(tags.get("Round"), Some(""));
        assert_eq!(tags.get("Site"), None);
        assert_eq!(Tags::new([]).len(), 0);
        assert_eq!(Tags::new([]).iter().count(), 0);
    }

    #[test]
    fn tags_are_written_as_the_pairs_they_hold_and_read_back() {
        let list = [
            ("Event", "Démo \"quoted\""),
            ("Kind", "puzzle"),
            ("Empty", ""),
        ];
        let tags = Tags::new(list);
        // The same bytes as the list of pairs: files written before read back.
        let as_pairs: Vec<(Box<str>, Box<str>)> = list
            .iter()
            .map(|(n, v)| ((*n).into(), (*v).into()))
            .collect();
        let bytes = postcard::to_stdvec(&tags).unwrap();
        assert_eq!(bytes, postcard::to_stdvec(&as_pairs).unwrap());
        let read: Tags = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(read, tags);
        let json = serde_json::to_string(&tags).unwrap();
        assert_eq!(
            json,
            r#"[["Event","Démo \"quoted\""],["Kind","puzzle"],["Empty",""]]"#
        );
        assert_eq!(serde_json::from_str::<Tags>(&json).unwrap(), tags);
        assert!(
            serde_json::from_str::<Tags>(r#"[["Event"]]"#).is_err(),
            "a pair lacking its value"
        );
    }
}
