//! "Did you mean": the closest known name to a misspelt one. It lives in the engine so that the rules compiler
//! (which has no dependencies, for the page) and the catalog checker suggest names the same way.

/// Edit distance counting insertions, deletions, substitutions and swaps of neighbouring characters as one
/// edit each (optimal string alignment), in characters: `titel` is one edit from `title`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: two back (for swaps), previous, current.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a likely typo: within a third of the name's
/// length (at least 1, at most 3 edits). A candidate differing only in case always counts.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).clamp(1, 3);
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| {
            let d = if c.to_lowercase() == lower {
                0
            } else {
                edit_distance(&lower, &c.to_lowercase())
            };
            (d, c)
        })
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
}

/// `did you mean `x`? ` before `help` when a candidate is close to `name`; `help` alone otherwise.
pub fn help_with<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    help: &str,
) -> String {
    match closest(name, candidates) {
        Some(close) if help.is_empty() => format!("did you mean `{close}`?"),
        Some(close) => format!("did you mean `{close}`? {help}"),
        None => help.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("titel", "title"), 1);
        assert_eq!(edit_distance("abc", "abd"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn suggests_only_close_names() {
        let names = ["title", "date", "description"];
        assert_eq!(closest("titel", names), Some("title"));
        assert_eq!(closest("Title", names), Some("title"));
        assert_eq!(closest("xyz", names), None);
        assert_eq!(
            help_with("capture", ["captures", "no-move"], "write it so"),
            "did you mean `captures`? write it so"
        );
    }
}
