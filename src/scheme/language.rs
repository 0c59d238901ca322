//! BCP 47 language tags (RFC 5646), checked against the grammar: language, extlang, script, region, variants,
//! extensions, private use, and the irregular grandfathered tags. Subtags are not checked against the IANA
//! registry, which would need a copy of it kept up to date.

const IRREGULAR: [&str; 17] = [
    "en-GB-oed",
    "i-ami",
    "i-bnn",
    "i-default",
    "i-enochian",
    "i-hak",
    "i-klingon",
    "i-lux",
    "i-mingo",
    "i-navajo",
    "i-pwn",
    "i-tao",
    "i-tay",
    "i-tsu",
    "sgn-BE-FR",
    "sgn-BE-NL",
    "sgn-CH-DE",
];

fn alpha(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphabetic())
}

fn alnum(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Whether `tag` is a BCP 47 tag; when not, why, and the tag meant when it is a language's name. The names are
/// looked up only for a tag that fails: pages check every value's language as they are made.
pub fn parse_language_tag(tag: &str) -> Result<(), String> {
    shape(tag).map_err(|why| match tag_for_name(tag) {
        Some(code) => format!(
            "`{tag}` is not a BCP 47 language tag: `{tag}` names a language; its tag is `{code}`"
        ),
        None => why,
    })
}

fn shape(tag: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("`{tag}` is not a BCP 47 language tag: {why}"));
    if IRREGULAR.iter().any(|t| t.eq_ignore_ascii_case(tag)) {
        return Ok(());
    }
    if tag.is_empty() {
        return bad("it is empty");
    }
    if tag.contains('_') {
        return bad("subtags are separated by `-`, not `_`");
    }
    let subtags: Vec<&str> = tag.split('-').collect();
    if subtags.iter().any(|s| s.is_empty()) {
        return bad("it has an empty subtag");
    }
    let mut i = 0;
    // A tag made only of private use: x-...
    if subtags[0].eq_ignore_ascii_case("x") {
        return private_use(&subtags[1..]).or_else(|why| bad(&why));
    }
    let language = subtags[0];
    if !alpha(language, 2, 8) {
        return bad("the language subtag must be 2 or 3 letters (an ISO 639 code)");
    }
    if language.len() == 4 {
        return bad("a language subtag has 2 or 3 letters, not 4");
    }
    // The grammar keeps 5-8 letters for languages the IANA registry may one day add; it holds none, so such a
    // subtag is always a mistake, most often a language's name written out.
    if language.len() >= 5 {
        return bad(
            "no language subtag of 5-8 letters is registered; write the language's ISO 639 code of 2 or 3 \
             letters",
        );
    }
    i += 1;
    // Up to three extended language subtags after a 2-3 letter language.
    if language.len() <= 3 {
        let mut extlangs = 0;
        while i < subtags.len() && alpha(subtags[i], 3, 3) && extlangs < 3 {
            i += 1;
            extlangs += 1;
        }
    }
    if i < subtags.len() && alpha(subtags[i], 4, 4) {
        i += 1; // script
    }
    if i < subtags.len()
        && (alpha(subtags[i], 2, 2)
            || (subtags[i].len() == 3 && subtags[i].bytes().all(|b| b.is_ascii_digit())))
    {
        i += 1; // region
    }
    let mut variants: Vec<String> = Vec::new();
    while i < subtags.len() {
        let s = subtags[i];
        let variant =
            alnum(s, 5, 8) || (s.len() == 4 && s.as_bytes()[0].is_ascii_digit() && alnum(s, 4, 4));
        if !variant {
            break;
        }
        let lower = s.to_ascii_lowercase();
        if variants.contains(&lower) {
            return bad(&format!("the variant `{s}` appears twice"));
        }
        variants.push(lower);
        i += 1;
    }
    let mut singletons: Vec<char> = Vec::new();
    while i < subtags.len() {
        let s = subtags[i];
        if s.eq_ignore_ascii_case("x") {
            return private_use(&subtags[i + 1..]).or_else(|why| bad(&why));
        }
        if s.len() != 1 || !alnum(s, 1, 1) {
            return bad(&format!(
                "`{s}` is not in a place a subtag of its kind can be"
            ));
        }
        let singleton = s.as_bytes()[0].to_ascii_lowercase() as char;
        if singletons.contains(&singleton) {
            return bad(&format!("the extension `{s}` appears twice"));
        }
        singletons.push(singleton);
        i += 1;
        let start = i;
        while i < subtags.len() && alnum(subtags[i], 2, 8) {
            i += 1;
        }
        if i == start {
            return bad(&format!("the extension `{s}` has no subtags"));
        }
    }
    Ok(())
}

/// English names of language subtags: the languages of the catalog's games and their regions, and the common
/// languages of scholarship about them. Pages show a value's language by this name (codes not listed are shown
/// as written), and a name written where a tag belongs (`English`, `Nepali`) is told its tag. Names follow the
/// IANA language subtag registry's descriptions, shortened where it gives several.
pub const LANGUAGES: &[(&str, &str)] = &[
    ("af", "Afrikaans"),
    ("ar", "Arabic"),
    ("as", "Assamese"),
    ("bho", "Bhojpuri"),
    ("bn", "Bengali"),
    ("bo", "Tibetan"),
    ("cce", "Chopi"),
    ("cs", "Czech"),
    ("da", "Danish"),
    ("de", "German"),
    ("dz", "Dzongkha"),
    ("el", "Greek"),
    ("en", "English"),
    ("es", "Spanish"),
    ("fa", "Persian"),
    ("fi", "Finnish"),
    ("fr", "French"),
    ("gu", "Gujarati"),
    ("he", "Hebrew"),
    ("hi", "Hindi"),
    ("hu", "Hungarian"),
    ("id", "Indonesian"),
    ("it", "Italian"),
    ("ja", "Japanese"),
    ("jv", "Javanese"),
    ("kha", "Khasi"),
    ("km", "Khmer"),
    ("kn", "Kannada"),
    ("ko", "Korean"),
    ("kok", "Konkani"),
    ("ks", "Kashmiri"),
    ("la", "Latin"),
    ("lo", "Lao"),
    ("lus", "Mizo"),
    ("mai", "Maithili"),
    ("ml", "Malayalam"),
    ("mn", "Mongolian"),
    ("mni", "Manipuri"),
    ("mr", "Marathi"),
    ("ms", "Malay"),
    ("my", "Burmese"),
    ("nag", "Naga Pidgin"),
    ("ne", "Nepali"),
    ("njm", "Angami Naga"),
    ("nl", "Dutch"),
    ("no", "Norwegian"),
    ("nsm", "Sumi Naga"),
    ("ny", "Nyanja"),
    ("or", "Odia"),
    ("pa", "Punjabi"),
    ("pi", "Pali"),
    ("pl", "Polish"),
    ("pt", "Portuguese"),
    ("ru", "Russian"),
    ("sa", "Sanskrit"),
    ("sat", "Santali"),
    ("sd", "Sindhi"),
    ("si", "Sinhala"),
    ("sn", "Shona"),
    ("st", "Southern Sotho"),
    ("sv", "Swedish"),
    ("sw", "Swahili"),
    ("ta", "Tamil"),
    ("te", "Telugu"),
    ("th", "Thai"),
    ("tr", "Turkish"),
    ("ts", "Tsonga"),
    ("ur", "Urdu"),
    ("uz", "Uzbek"),
    ("vi", "Vietnamese"),
    ("xh", "Xhosa"),
    ("zh", "Chinese"),
    ("zu", "Zulu"),
];

/// Other names archivists give some of those languages, for telling a name its tag.
const OTHER_NAMES: &[(&str, &str)] = &[
    ("bangla", "bn"),
    ("farsi", "fa"),
    ("meitei", "mni"),
    ("oriya", "or"),
    ("sinhalese", "si"),
    ("sumi", "nsm"),
];

/// The tag of the language `name` names (`English`, `nepali`, `Bengali language`, `Bangla`), if it is one of
/// [`LANGUAGES`] or [`OTHER_NAMES`].
pub fn tag_for_name(name: &str) -> Option<&'static str> {
    let name = name.trim();
    let name = name
        .strip_suffix(" language")
        .or_else(|| name.strip_suffix(" Language"))
        .unwrap_or(name);
    let named = |&&(_, known): &&(&str, &str)| known.eq_ignore_ascii_case(name);
    let other = |&&(known, _): &&(&str, &str)| known.eq_ignore_ascii_case(name);
    LANGUAGES
        .iter()
        .find(named)
        .map(|&(tag, _)| tag)
        .or_else(|| OTHER_NAMES.iter().find(other).map(|&(_, tag)| tag))
}

fn private_use(subtags: &[&str]) -> Result<(), String> {
    if subtags.is_empty() || !subtags.iter().all(|s| alnum(s, 1, 8)) {
        return Err("private use `x-` needs subtags of 1-8 letters or digits".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_tags() {
        for ok in [
            "en",
            "hi",
            "nag",
            "bn-Latn",
            "pt-MZ",
            "ne-Latn",
            "zh-Hant-TW",
            "es-419",
            "sl-rozaj-biske",
            "de-CH-1901",
            "en-a-bbb-x-a-ccc",
            "x-whatever",
            "i-klingon",
            "zh-yue-HK",
            "EN-gb",
        ] {
            assert!(parse_language_tag(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn invalid_tags() {
        for bad in [
            "",
            "e",
            "en_GB",
            "english-and-more",
            "Nepali",
            "English",
            "Hindi",
            "Bengali",
            "abcdefgh",
            "Tamil-IN",
            "en-",
            "abcd",
            "en-a",
            "de-1901-1901",
            "en-a-bb-a-cc",
            "x",
            "en-Latn-Latn",
            "123",
        ] {
            assert!(parse_language_tag(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_language_named_is_told_its_tag() {
        let said = parse_language_tag("Nepali").unwrap_err();
        assert!(said.contains("its tag is `ne`"), "{said}");
        assert_eq!(tag_for_name("english"), Some("en"));
        assert_eq!(tag_for_name(" Bengali language "), Some("bn"));
        assert_eq!(tag_for_name("Klingon"), None);
        // A name the table does not hold is still refused, with the rule rather than a tag.
        let said = parse_language_tag("Klingon").unwrap_err();
        assert!(said.contains("ISO 639"), "{said}");
        // Every tag the table gives is a tag.
        assert_eq!(tag_for_name("Sumi"), Some("nsm"));
        let tags = LANGUAGES.iter().map(|(tag, _)| tag);
        for tag in tags.chain(OTHER_NAMES.iter().map(|(_, tag)| tag)) {
            assert!(parse_language_tag(tag).is_ok(), "{tag}");
        }
    }
}
