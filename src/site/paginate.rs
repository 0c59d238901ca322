//! Long lists split into pages of a fixed size, so that no page of the site grows with the catalog.
//!
//! The first page of a list keeps the list's own address (`browse/index.html`, `tags/capture/index.html`); page
//! `n` lives below it at `<folder>/page/<n>/index.html`. The `page` folder cannot clash with a page the catalog
//! names: the folders below `tags/`, `places/`, `people/` and `sources/` are slugs, and even a tag whose slug is
//! `page` keeps its own pages one level deeper (`tags/page/page/2/index.html`) than the pages of the tag index
//! (`tags/page/2/index.html`).
//!
//! Splitting depends only on the order of what is split, so the same catalog always gives the same pages, and a
//! list that fits on one page is one page with no page navigation at all.

use serde::Serialize;

/// How many rows or links a page holds.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    /// Rows of a table (browse, rules at a glance) and games of the variants list.
    pub rows: usize,
    /// Links of a plain list (a tag's items, the tag index, a source's citations, names not yet catalogued).
    pub links: usize,
    /// Games drawn in the variants graph.
    pub graph: usize,
}

impl Sizes {
    pub const DEFAULT: Sizes = Sizes {
        rows: 100,
        links: 200,
        graph: 120,
    };

    /// The sizes of this build. `LUDOTHECA_PAGE_SIZE` sets all three to one small number, so that a test can
    /// exercise pagination on a catalog of a few hundred items instead of tens of thousands.
    pub fn current() -> Sizes {
        match std::env::var("LUDOTHECA_PAGE_SIZE")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|&n| n > 0)
        {
            Some(n) => Sizes {
                rows: n,
                links: n,
                graph: n,
            },
            None => Sizes::DEFAULT,
        }
    }
}

/// The site path of page `number` (from 1) of the list whose first page is `<folder>/index.html`.
pub fn path(folder: &str, number: usize) -> String {
    if number <= 1 {
        format!("{folder}/index.html")
    } else {
        format!("{folder}/page/{number}/index.html")
    }
}

/// `items` in pages of at most `size` (at least one page, which may be empty).
pub fn split<T>(items: Vec<T>, size: usize) -> Vec<Vec<T>> {
    let size = size.max(1);
    let mut pages: Vec<Vec<T>> = Vec::new();
    for item in items {
        match pages.last_mut() {
            Some(page) if page.len() < size => page.push(item),
            _ => {
                let mut page = Vec::with_capacity(size);
                page.push(item);
                pages.push(page);
            }
        }
    }
    if pages.is_empty() {
        pages.push(Vec::new());
    }
    pages
}

/// Groups of items in pages of at most `size` items, never splitting a group: a group joins the current page if
/// it fits, and otherwise starts the next one (a group bigger than a page is a page of its own). Used where a
/// group is one thing to the reader, such as the rulesets of one game.
pub fn split_groups<T>(groups: Vec<Vec<T>>, size: usize) -> Vec<Vec<T>> {
    let mut pages: Vec<Vec<T>> = Vec::new();
    for group in groups {
        match pages.last_mut() {
            Some(page) if page.is_empty() || page.len() + group.len() <= size => page.extend(group),
            _ => pages.push(group),
        }
    }
    if pages.is_empty() {
        pages.push(Vec::new());
    }
    pages
}

/// One page of a list: its number, where it goes, its way back to the site root, its navigation, and what it
/// holds.
pub struct Slot<T> {
    pub number: usize,
    pub pages: usize,
    pub path: String,
    pub root: String,
    pub pager: Option<Pager>,
    pub items: Vec<T>,
}

impl<T> Slot<T> {
    /// What a page's key must hold of its place in the list: its number and the number of pages, and the range
    /// and total its navigation shows. The total is on every page, so an item added to the last page changes
    /// the first page too, though its items stay the same.
    pub fn place(&self) -> String {
        match &self.pager {
            Some(p) => format!(
                "{}/{}:{}-{}/{}",
                self.number, self.pages, p.from, p.to, p.total
            ),
            None => format!("{}/{}", self.number, self.pages),
        }
    }
}

/// The pages of the list in `folder`, one per chunk, each with its navigation (`noun` names what the list
/// counts).
pub fn slots<T>(folder: &str, noun: &str, chunks: Vec<Vec<T>>) -> Vec<Slot<T>> {
    let pages = chunks.len();
    let total: usize = chunks.iter().map(Vec::len).sum();
    let mut from = 1;
    chunks
        .into_iter()
        .enumerate()
        .map(|(n, items)| {
            let number = n + 1;
            let path = path(folder, number);
            let root = super::pages::root_of(&path);
            let to = from + items.len() - usize::from(!items.is_empty());
            let pager = pager(folder, number, pages, &root, noun, (from, to, total));
            from = to + 1;
            Slot {
                number,
                pages,
                path,
                root,
                pager,
                items,
            }
        })
        .collect()
}

/// The page navigation of one page of a list, with every link relative to that page.
#[derive(Clone, Debug, Serialize)]
pub struct Pager {
    pub number: usize,
    pub pages: usize,
    /// What the list counts (`items`, `rulesets`, `games`), for the line saying which are on this page.
    pub noun: String,
    pub total: String,
    pub from: String,
    pub to: String,
    pub first: Option<String>,
    pub prev: Option<String>,
    pub next: Option<String>,
    pub last: Option<String>,
    /// The first and last page, the pages near this one, and gaps (`href` empty) between them.
    pub numbers: Vec<PageLink>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PageLink {
    pub number: usize,
    pub href: String,
    pub current: bool,
}

/// The navigation of page `number` of `pages` of the list in `folder`, for a page whose way back to the site
/// root is `root`; `from..=to` of `total` things are on it. `None` when the list is one page.
pub fn pager(
    folder: &str,
    number: usize,
    pages: usize,
    root: &str,
    noun: &str,
    (from, to, total): (usize, usize, usize),
) -> Option<Pager> {
    if pages <= 1 {
        return None;
    }
    let href = |n: usize| format!("{root}{}", path(folder, n));
    let mut numbers = Vec::new();
    let mut last_shown = 0;
    for n in 1..=pages {
        let near = n + 2 >= number && n <= number + 2;
        if n == 1 || n == pages || near {
            if n > last_shown + 1 {
                numbers.push(PageLink {
                    number: 0,
                    href: String::new(),
                    current: false,
                });
            }
            numbers.push(PageLink {
                number: n,
                href: href(n),
                current: n == number,
            });
            last_shown = n;
        }
    }
    Some(Pager {
        number,
        pages,
        noun: noun.to_string(),
        total: thousands(total),
        from: thousands(from),
        to: thousands(to),
        first: (number > 1).then(|| href(1)),
        prev: (number > 1).then(|| href(number - 1)),
        next: (number < pages).then(|| href(number + 1)),
        last: (number < pages).then(|| href(pages)),
        numbers,
    })
}

/// `12345` as `12,345`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_keep_order_and_never_lose_an_item() {
        let pages = split((0..25).collect(), 10);
        assert_eq!(pages.len(), 3);
        assert_eq!(pages.concat(), (0..25).collect::<Vec<_>>());
        assert_eq!(split(Vec::<u8>::new(), 10).len(), 1);

        let groups = vec![vec![1, 2, 3], vec![4, 5], vec![6; 7], vec![7]];
        let pages = split_groups(groups, 5);
        assert_eq!(pages, vec![vec![1, 2, 3, 4, 5], vec![6; 7], vec![7]]);
    }

    #[test]
    fn the_pager_links_relative_to_its_page() {
        assert!(pager("browse", 1, 1, "../", "items", (1, 5, 5)).is_none());
        let p = pager("browse", 5, 9, "../../../", "items", (401, 500, 850)).unwrap();
        assert_eq!(p.prev.as_deref(), Some("../../../browse/page/4/index.html"));
        assert_eq!(p.first.as_deref(), Some("../../../browse/index.html"));
        let shown: Vec<usize> = p.numbers.iter().map(|n| n.number).collect();
        assert_eq!(shown, vec![1, 0, 3, 4, 5, 6, 7, 0, 9]);
        assert_eq!(p.total, "850");
        assert_eq!(thousands(10000), "10,000");
        assert_eq!(thousands(999), "999");
    }
}
