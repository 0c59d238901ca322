//! Every page of the site: what each template is given, and the rendering of all of them in parallel.
//!
//! Links are made here, relative to the page they are on (`../../tags/alquerque/index.html`), and always end in
//! `index.html`, because a link to a folder shows a directory listing when the site is opened from disk.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Value as Json, json};
use tera::Context;

use super::cite;
use super::fields::{self, Field, FieldValue};
use super::memo::{Items, Parts};
use super::meta::{self, MetaTag};
use super::output::{self, Hash, Staging};
use super::paginate::{self, Sizes};
use super::progress::Progress;
use super::reuse;
use super::sink::{Plain, Sink};
use super::theme::Theme;
use super::{BuildOptions, Scope, board, bundle, data, graph, lists, markdown, search, values};
use crate::archive::rules::{family_name, point_word};
use crate::archive::text::{one_line, summary};
use crate::archive::{Archive, Diagram, Entry, Facet, Target};
use crate::catalog::Kind;
use crate::catalog::terms::TERMS;

#[path = "atlas/mod.rs"]
mod atlas;

/// A link as a template shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Link {
    pub href: String,
    pub text: String,
    /// A short remark after the link (pages, a ruleset, a role).
    pub note: Option<String>,
    pub lang: Option<String>,
}

/// The parts every page shares.
#[derive(Clone, Debug, Serialize)]
struct Layout {
    site_title: String,
    site_description: String,
    /// The way back to the site root from this page: `""`, `"../"`, `"../../"`.
    root: String,
    title: String,
    description: String,
    /// Which main section the page belongs to, for the navigation.
    section: &'static str,
    #[serde(skip)]
    dc: Vec<MetaTag>,
    #[serde(skip)]
    dc_links: Vec<meta::MetaLink>,
    /// `dc_links` and `dc` as `<link>` and `<meta>` elements, made in [`Site::job`].
    dc_html: String,
    /// What the page describes as linked data, given as a value: [`Site::job`] adds its address and writes it
    /// out once, as `json_ld`.
    #[serde(skip)]
    ld: Option<serde_json::Value>,
    json_ld: String,
    nav: Vec<NavLink>,
    /// `nav` as the list items of the main navigation, the current section marked.
    nav_html: String,
}

#[derive(Clone, Debug, Serialize)]
struct NavLink {
    section: &'static str,
    href: &'static str,
    label: &'static str,
}

/// The main navigation's list items for a page `root` away from the site's root in `section`, each followed by
/// the indentation of the next. Written here rather than by a loop in the frame: every page has it, and the
/// template engine's loop cost more than the rest of the frame.
fn nav_html(root: &str, section: &str) -> String {
    let mut html = String::new();
    for (s, href, label) in NAV {
        html.push_str("<li><a href=\"");
        super::theme::push_escaped(&mut html, root);
        html.push_str(href);
        html.push('"');
        if s == section {
            html.push_str(" aria-current=\"page\"");
        }
        html.push('>');
        html.push_str(label);
        html.push_str("</a></li>\n      ");
    }
    html
}

/// The main navigation: (section, page, label).
const NAV: [(&str, &str, &str); 11] = [
    ("browse", "browse/index.html", "Browse"),
    ("variants", "variants/index.html", "Variants"),
    ("rules", "rules/index.html", "Rules"),
    ("puzzles", "puzzles/index.html", "Puzzles"),
    ("tags", "tags/index.html", "Tags"),
    ("places", "places/index.html", "Places"),
    ("map", "map/index.html", "Map"),
    ("timeline", "timeline/index.html", "Timeline"),
    ("people", "people/index.html", "People"),
    ("sources", "sources/index.html", "Sources"),
    ("about", "about/index.html", "About"),
];

/// A page to render: its template and what the template is given. The data is kept as it is until the page is
/// rendered, because its hash decides whether the page needs rendering at all.
struct Job {
    path: String,
    template: &'static str,
    layout: Layout,
    page: serde_json::Value,
}

/// A page at `path` (relative to the site root) sees the root at this prefix.
pub(super) fn root_of(path: &str) -> String {
    "../".repeat(path.matches('/').count())
}

fn kind_label(kind: Kind) -> &'static str {
    match kind {
        Kind::Game => "Game",
        Kind::Board => "Board",
        Kind::Evidence => "Evidence",
    }
}

struct Site<'a, 'c> {
    archive: &'a Archive<'c>,
    options: &'a BuildOptions,
    /// The picture file of each distinct diagram, by the address of its shared copy.
    diagrams: HashMap<usize, DiagramFile>,
    /// Each item's key ([`item_key`]), in the order of the archive's entries: what its page and its parts of
    /// the data files are made from, but the templates (see [`Renderer::page_key`]).
    keys: Vec<Hash>,
    /// Each item's own key ([`own_key`]), in the same order: for lists that show only what the item itself
    /// says, which an edit of an item it links with does not change.
    own_keys: Vec<Hash>,
    /// What every page is made from besides the items ([`catalog_key`]).
    catalog_key: Hash,
    /// Each item's works cited ([`cited_works`]), in the order of the archive's entries: what its page, its
    /// parts of the data files and its rows in lists show of the bibliography.
    cited: Vec<Hash>,
    /// Each work of the bibliography as parsed, hashed, in the order of the archive's sources: what its own
    /// pages show of it.
    works: Vec<Hash>,
}

/// A diagram's picture file (`diagrams/<hash>.svg`, named by its bytes) and its size in pixels.
struct DiagramFile {
    path: String,
    width: u32,
    height: u32,
}

/// A shared diagram's identity: the address of its one copy (never followed, only compared).
fn diagram_id(diagram: &Arc<Diagram>) -> usize {
    Arc::as_ptr(diagram) as usize
}

impl<'a, 'c> Site<'a, 'c> {
    /// A list page's key: what it is made from besides the catalog-wide files (`parts`: which list, which of
    /// its pages, how many, and whatever the list shares between its pages) and the keys of the items it shows,
    /// taken from `keys` (the items' keys, or their own keys for a list that shows only what each item
    /// itself says).
    fn list_key(&self, parts: &[&[u8]], keys: &[Hash], items: impl Iterator<Item = usize>) -> Hash {
        let count = (parts.len() as u64).to_le_bytes();
        let keys: Vec<&[u8]> = items.map(|i| &keys[i][..]).collect();
        crate::fingerprint::key(
            &self.catalog_key,
            std::iter::once(&count[..])
                .chain(parts.iter().copied())
                .chain(keys),
        )
    }

    fn layout(&self, path: &str, title: &str, description: &str, section: &'static str) -> Layout {
        let config = &self.archive.catalog.config;
        let root = root_of(path);
        Layout {
            nav_html: nav_html(&root, section),
            site_title: config.title.clone(),
            site_description: one_line(&config.description),
            root,
            title: title.to_string(),
            description: one_line(description),
            section,
            dc: Vec::new(),
            dc_links: Vec::new(),
            dc_html: String::new(),
            ld: None,
            json_ld: String::new(),
            nav: NAV
                .iter()
                .map(|&(section, href, label)| NavLink {
                    section,
                    href,
                    label,
                })
                .collect(),
        }
    }

    fn job(
        &self,
        path: String,
        template: &'static str,
        layout: Layout,
        page: serde_json::Value,
    ) -> Job {
        let mut layout = layout;
        let ld = layout.ld.take();
        layout.json_ld = self.identified(&path, template, ld, &layout.title);
        // A page with Dublin Core describes something; `DC.identifier` is the page's address (relative to the page
        // itself without a base URL, which a reader resolves against wherever the site is).
        if !layout.dc.is_empty() || !layout.dc_links.is_empty() {
            let href = match self.options.base_url.as_deref() {
                Some(base) => format!("{base}{path}"),
                None => path.rsplit('/').next().unwrap_or(&path).to_string(),
            };
            layout.dc_links.insert(
                0,
                meta::MetaLink {
                    rel: "DC.identifier".into(),
                    href,
                    title: None,
                },
            );
        }
        layout.dc_html = meta::dc_html(&layout.dc, &layout.dc_links);
        Job {
            path,
            template,
            layout,
            page,
        }
    }

    /// A page's JSON-LD with its `@id`, the page's address and a fragment naming what the page describes
    /// (`…/index.html#item`), and, when the site's address is known, its `url`; a page that describes nothing of
    /// its own is a `WebPage`. Without a base URL the `@id` is the fragment alone, which JSON-LD resolves
    /// against the page's address, wherever the site is put.
    fn identified(
        &self,
        path: &str,
        template: &str,
        ld: Option<serde_json::Value>,
        title: &str,
    ) -> String {
        let mut ld = ld.unwrap_or_else(
            || json!({ "@context": "https://schema.org", "@type": "WebPage", "name": title }),
        );
        let fragment = match (template, ld["@type"].as_str()) {
            ("item.html", _) => "item",
            ("home.html", _) => "site",
            ("source.html", _) => "source",
            ("person.html", _) => "agent",
            (_, Some("Place")) => "place",
            (_, Some("DefinedTerm")) => "term",
            _ => "page",
        };
        match self.options.base_url.as_deref() {
            Some(base) => {
                ld["@id"] = json!(format!("{base}{path}#{fragment}"));
                ld["url"] = json!(format!("{base}{path}"));
            }
            None => ld["@id"] = json!(format!("#{fragment}")),
        }
        meta::script_json(&ld)
    }

    /// A diagram's picture file as a page shows it (`src`, `width`, `height`, `alt`): the `alt` is `label`,
    /// what it shows, then `described`, the position in words, for a reader who cannot see it.
    fn diagram_image(
        &self,
        root: &str,
        diagram: &Arc<Diagram>,
        label: String,
        described: String,
    ) -> Option<Json> {
        let file = self.diagrams.get(&diagram_id(diagram))?;
        Some(json!({
            "src": format!("{root}{}", file.path),
            "width": file.width,
            "height": file.height,
            "alt": format!("{label}. {described}"),
        }))
    }

    fn item_link(&self, root: &str, index: usize, note: Option<String>) -> Link {
        let entry = &self.archive.entries[index];
        Link {
            href: format!("{root}{}", entry.url),
            text: entry.title.clone(),
            note,
            lang: None,
        }
    }

    fn facet_links(
        &self,
        root: &str,
        folder: &str,
        facets: &[Facet],
        which: &[usize],
    ) -> Vec<Link> {
        which
            .iter()
            .map(|&i| Link {
                href: format!("{root}{folder}/{}/index.html", facets[i].slug),
                text: facets[i].name.clone(),
                note: None,
                lang: None,
            })
            .collect()
    }

    fn source_link(&self, root: &str, key: &str, pages: Option<&str>) -> Link {
        let note = pages.map(cite::pages);
        match self.archive.source(key) {
            Some(source) => Link {
                href: format!("{root}sources/{}/index.html", source.slug),
                text: cite::short(source.entry),
                note,
                lang: None,
            },
            None => Link {
                href: String::new(),
                text: key.to_string(),
                note,
                lang: None,
            },
        }
    }
}

/// What rendering did: pages rendered, pages kept from the previous site because nothing they show changed,
/// and every page's path (for the sitemap).
pub struct Rendered {
    pub pages: usize,
    pub rendered: usize,
    pub kept: usize,
    /// The pictures whose copies were scaled, and those kept from the previous site.
    pub images: super::media::Counts,
    /// Items' parts of the data files read from the previous site's files rather than made again.
    pub parts_taken: usize,
    /// Data files (catalog.json, catalog.csv, oai-pmh.xml) kept whole: made from what the previous ones were.
    pub data_kept_whole: usize,
    /// The list pages taken whole as the previous build made them ([`lists`]); `None` when the lists were made.
    pub lists_taken: Option<usize>,
    /// How long each of the render's chains took, in the order of [`Chain`]: they run side by side, so each
    /// is the wall time of its own work, and the render takes about their sum over the cores.
    pub chains: Vec<(Chain, Duration)>,
}

/// The render's chains of work, which run side by side on the cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chain {
    /// catalog.json, catalog.csv and oai-pmh.xml.
    DataFiles,
    SearchIndex,
    /// The site-wide pages: home, browse, the rules at a glance, tags, places, people, sources and the rest,
    /// with the sitemap.
    Lists,
    /// Every item's page and downloads.
    ItemPages,
    /// The board diagrams, the pictures' copies and the theme's static files.
    Files,
}

impl Chain {
    pub fn name(self) -> &'static str {
        match self {
            Chain::DataFiles => "data files",
            Chain::SearchIndex => "search index",
            Chain::Lists => "lists",
            Chain::ItemPages => "items' pages",
            Chain::Files => "diagrams and pictures",
        }
    }
}

/// Times each chain a build runs, from whichever thread runs it.
#[derive(Default)]
struct Clock(Mutex<Vec<(Chain, Duration)>>);

impl Clock {
    /// Run `work`, adding how long it took to `chain`'s time.
    fn time<T>(&self, chain: Chain, work: impl FnOnce() -> T) -> T {
        let started = std::time::Instant::now();
        let done = work();
        let took = started.elapsed();
        let mut chains = self
            .0
            .lock()
            .expect("no thread panics while holding the clock");
        match chains.iter_mut().find(|(c, _)| *c == chain) {
            Some((_, total)) => *total += took,
            None => chains.push((chain, took)),
        }
        done
    }

    /// The chains timed, in the order of [`Chain`].
    fn chains(self) -> Vec<(Chain, Duration)> {
        let mut chains = self
            .0
            .into_inner()
            .expect("no thread panics while holding the clock");
        chains.sort_by_key(|(chain, _)| *chain as u8);
        chains
    }
}

/// Render every page and data file of the site into `staging`, each page written as soon as it is rendered (so
/// memory holds a few pages at a time, not the site). A page whose template data hashes the same as when the
/// previous site's copy was rendered, with the same templates and the same binary, is kept without rendering.
/// What earlier builds left: `parts`, kept by a long-running process between builds, gives each item's part of
/// the site-wide files when the item's key is the same as when it was made; `left`, read from the previous site
/// while the catalog loaded, its search words and lists.
pub fn render_site(
    archive: &Archive,
    theme: &Theme,
    options: &BuildOptions,
    staging: &Staging,
    (parts, left): (Option<&Parts>, output::Left),
    scope: Scope,
    memory: super::Memory,
) -> Result<Rendered, String> {
    let whole = scope == Scope::Whole;
    let clock = Clock::default();
    let diagrams = clock.time(Chain::Files, || diagram_files(archive, staging))?;
    let program = crate::fingerprint::program();
    let renderer = Renderer {
        theme,
        staging,
        program,
        template_keys: theme
            .templates()
            .map(|name| (name, template_key(&program, theme, name)))
            .collect(),
        rendered: AtomicUsize::new(0),
        kept: AtomicUsize::new(0),
    };
    let mut site = Site {
        archive,
        options,
        diagrams,
        keys: Vec::new(),
        own_keys: Vec::new(),
        catalog_key: Hash::default(),
        cited: Vec::new(),
        works: Vec::new(),
    };
    // An item page is keyed by what it is made from, so an unchanged one is not even built; the same key
    // finds the item's parts of the site-wide files, and the list pages are keyed by the items they list.
    // Without the templates: each page's key adds its own (see [`Renderer::template_key`]). The items' parts of
    // the data files show no template, so a change of the theme leaves every part as it was (at 10,000 items,
    // 40,000 parts not made again after each save of a template).
    site.catalog_key = catalog_key(&site, &program);
    (site.works, site.cited) = cited_works(archive);
    // The previous site's data files, read through the index of their parts it left: beside the keys, since
    // filing 40,000 parts (at 10,000 items) is one thread's work.
    let read_previous = || match staging.previous_file(reuse::INDEX).filter(|_| whole) {
        Some((mut file, index_as_recorded)) => {
            let mut index = Vec::new();
            match std::io::Read::read_to_end(&mut file, &mut index) {
                // A data file is vouched for by its look only with the index that says where its parts lie.
                Ok(_) => reuse::Previous::from_index(&index, |path| {
                    let (file, as_recorded) = staging.previous_file(path)?;
                    Some((file, as_recorded && index_as_recorded))
                }),
                Err(_) => reuse::Previous::default(),
            }
        }
        None => reuse::Previous::default(),
    };
    let (previous, (keys, own_keys)) = rayon::join(read_previous, || {
        let keys: Vec<Hash> = archive
            .entries
            .par_iter()
            .enumerate()
            .map(|(i, entry)| item_key(&site, &site.catalog_key, i, entry))
            .collect();
        // Only the lists take them, and a build of the items' pages makes no list.
        let own_keys: Vec<Hash> = if whole {
            archive
                .entries
                .par_iter()
                .zip(&site.cited)
                .map(|(entry, cited)| own_key(&site.catalog_key, entry, cited))
                .collect()
        } else {
            Vec::new()
        };
        (keys, own_keys)
    });
    site.keys = keys;
    site.own_keys = own_keys;
    let site = site;
    let keys = &site.keys;
    // Only a whole build writes the index of parts.
    let recorder = reuse::Recorder::for_items(if whole { archive.entries.len() } else { 0 });
    let items = Items::new(keys, parts, Some(&previous), Some(&recorder));
    let progress = Progress::new(archive.entries.len(), options.progress);
    let out = Out {
        renderer: &renderer,
        paths: Mutex::new(Vec::new()),
        files: Mutex::new(Vec::new()),
        kept: OnceLock::new(),
    };
    // Every list is made from what this key holds: when the previous build's lists were made from the same,
    // each of their files is kept as it was, and no list is made or keyed.
    let lists_key = if whole {
        lists_key(&site, &renderer)
    } else {
        Hash::default()
    };
    let emit_all = |jobs: Vec<Job>| jobs.into_par_iter().try_for_each(|job| out.page(job));

    // The site-wide files are made alongside the pages: each is one thread's work.
    let base = options.base_url.as_deref();
    let exports = || -> Result<super::media::Counts, String> {
        // An item's pictures are its own files: made in both scopes.
        if !whole {
            return clock.time(Chain::Files, || {
                super::media::write_images(archive, staging, &program)
            });
        }
        // Written as they are made: at 100,000 items each is hundreds of megabytes.
        let csv_columns = OnceLock::new();
        // Smallest first at any size: a CSV row is shorter than its item's OAI-PMH record, and that than its
        // JSON object (see below for why the order matters).
        let files: Vec<(&str, Export)> = vec![
            (
                "catalog.csv",
                Box::new(|items, w| {
                    let columns = csv_columns.get_or_init(|| data::CsvColumns::of(archive));
                    data::catalog_csv_with(archive, columns, items, w)
                }),
            ),
            (
                "oai-pmh.xml",
                Box::new(|items, w| data::oai_pmh(archive, base, items, w)),
            ),
            (
                "catalog.json",
                Box::new(|items, w| data::catalog_json(archive, items, w)),
            ),
        ];
        let data_file = |path: &str, write: &Export| -> Result<(), String> {
            // What the file is made from, found by a dry run of its writer (the parts' keys in their places):
            // the same as the previous build's, the file is the previous file, kept whole rather than read back
            // part by part and written again (118 MB at 10,000 items).
            let found = Mutex::new(None);
            let recipe = items.recipe(&found).and_then(|dry| {
                let mut hasher = blake3::Hasher::new();
                hasher.update(&program);
                hasher.update(path.as_bytes());
                write(&dry, &mut Plain(&mut hasher)).ok()?;
                Some(*hasher.finalize().as_bytes())
            });
            let found = found
                .into_inner()
                .expect("no thread panics while holding the parts found");
            if let (Some(recipe), Some(kept)) = (recipe, &found)
                && kept.held_whole()
                && staging.keep_if_unchanged(path, recipe)?
            {
                items.keep_parts(kept);
                return Ok(());
            }
            match &found {
                Some(kept) => staging.put_parts(path, recipe, &|w| write(&items.keyed(kept), w)),
                None => staging.put_parts(path, recipe, &|w| write(&items, w)),
            }
        };
        // The index's files are small and many; the items' parts beside them are one file, written as made.
        let index = Mutex::new(None);
        let search_index = || {
            clock.time(Chain::SearchIndex, || {
                // The previous build's words, with which the index is patched rather than made in full, and its
                // files kept where they hold what they held.
                let keep = |path: &str| staging.keep_as_it_was(path).map_err(std::io::Error::other);
                let before =
                    (!left.words.is_empty()).then(|| (&left.words[..], &keep as &search::Keep<'_>));
                staging.put_parts(reuse::Export::Search.path(), None, &|w| {
                    let made =
                        search::index_files(archive, &items, &mut reuse::Counted::new(w), before)?;
                    *index
                        .lock()
                        .expect("no thread panics while holding the index") = Some(made);
                    Ok(())
                })
            })
        };
        let timed_data_file = |(path, write): &(&str, Export)| {
            clock.time(Chain::DataFiles, || data_file(path, write))
        };
        if memory.is_short() {
            // After the three files, not beside them: the index holds every word's postings while it is made,
            // and the two together would raise the build's peak memory.
            files.iter().try_for_each(timed_data_file)?;
            search_index()?;
        } else {
            // Each file is one thread's job. The index, mostly one thread's work, is begun at once: made last,
            // or left for whichever thread came free, it was a rebuild's tail, on one core while the other
            // waited. This thread then takes the files newest first, while the core the pages leave free takes
            // the oldest: queued smallest first, the file left for last is the smallest.
            let failed = Mutex::new(None);
            let note = |done: Result<(), String>| {
                if let Err(error) = done {
                    failed
                        .lock()
                        .expect("no thread panics while holding the first error")
                        .get_or_insert(error);
                }
            };
            rayon::scope(|scope| {
                for file in &files {
                    scope.spawn(|_| note(timed_data_file(file)));
                }
                note(search_index());
            });
            if let Some(error) = failed
                .into_inner()
                .expect("no thread panics while holding the first error")
            {
                return Err(error);
            }
        }
        clock.time(Chain::SearchIndex, || {
            let made = index
                .into_inner()
                .expect("no thread panics while holding the index")
                .expect("the index is made before the render goes on");
            made.files
                .into_iter()
                .try_for_each(|(path, contents)| staging.put(&path, contents.as_bytes(), None))?;
            staging.put(search::WORDS, &made.words, None)
        })?;
        clock.time(Chain::Files, || {
            theme.statics.iter().try_for_each(|(name, bytes)| {
                staging.put(&format!("static/{name}"), bytes, None)
            })?;
            super::media::write_images(archive, staging, &program)
        })
    };
    // The site-wide pages are made group by group, each group's data on one thread: beside the items' pages,
    // whose work fills the other core meanwhile.
    let lists_taken = OnceLock::new();
    let site_pages = || -> Result<(), String> {
        if whole {
            if let Some(made) = lists::made_from(&left.lists, &lists_key) {
                let pages = made.pages.len();
                if out.keep_lists(made)? {
                    lists_taken
                        .set(pages)
                        .expect("the lists are taken once at most");
                    return Ok(());
                }
            }
            emit_all(vec![home(&site), search_page(&site), about(&site)])?;
            browse(&site, &out)?;
            rules_page(&site, &out)?;
            puzzles_page(&site, &out)?;
            variants(&site, &out)?;
            uncatalogued(&site, &out)?;
            facet_pages(&site, &out, "tags", "Tags", &archive.tags)?;
            facet_pages(&site, &out, "places", "Places", &archive.places)?;
            let (map, outlines) = atlas::map_pages(&site);
            for (path, svg) in outlines {
                out.file(&path, svg.as_bytes())?;
            }
            emit_all(map)?;
            atlas::timeline_pages(&site, &out)?;
            people_pages(&site, &out)?;
            source_pages(&site, &out, emit_all)?;
        }
        Ok(())
    };
    let item_pages = || -> Result<(), String> {
        archive
            .entries
            .par_iter()
            .enumerate()
            // Pieces of a few items, so that a core left idle at the end (its other chains done) always finds
            // some to take: split only when taken, one piece of a 1,000-item build's pages was made on one core
            // for its last 40 ms while the other waited.
            .with_max_len(ITEMS_A_PIECE)
            .try_for_each(|(i, entry)| {
                let key = renderer.page_key(&keys[i]);
                let files = if staging.keep_if_unchanged(&entry.url, key)? {
                    renderer.kept.fetch_add(1, Ordering::Relaxed);
                    // The page's key covers the item's files and the program, all that its downloads are made
                    // from: the previous site's copies are kept without making their own keys again (or
                    // unpacking the item's texts). Only one the previous site lacks is made.
                    let mut missing = Vec::new();
                    for file in item_files(entry) {
                        if !staging.keep_as_it_was(file.path())? {
                            missing.push(file);
                        }
                    }
                    missing
                } else {
                    let (job, files) = item_page(&site, entry)?;
                    renderer.render_as(job, key)?;
                    files
                };
                for file in files {
                    match file {
                        Download::Text(path, file) => {
                            // The text is one of the item's files, so their hash stands for its bytes: an
                            // unchanged record is kept without hashing 10,000 records' bytes again.
                            let inputs =
                                crate::fingerprint::key(&entry.files_hash, [path.as_bytes()]);
                            if !staging.keep_if_unchanged(&path, inputs)? {
                                let text = archive.catalog.files.get(file).text();
                                staging.put(&path, text.as_bytes(), Some(inputs))?;
                            }
                        }
                        Download::Folder(path, item) => {
                            // Zipping is the costly part of an item's files: skipped when they are unchanged.
                            let inputs = bundle::inputs(entry, &program);
                            if !staging.keep_if_unchanged(&path, inputs)? {
                                let bytes = bundle::item_zip(archive.catalog, item, entry.images)?;
                                staging.put(&path, &bytes, Some(inputs))?;
                            }
                        }
                    }
                }
                progress.tick();
                Ok::<(), String>(())
            })
    };
    // The lists' file and the sitemap are written as soon as the lists are done, beside the items' pages:
    // every page the lists make is known by then, and the items' pages are the archive's entries. Written
    // after both, they ran on one core while the other waited, at the end of every build (about 5 ms of a
    // rebuild at 10,000 items, in a profile).
    let listed = || -> Result<usize, String> {
        site_pages()?;
        let mut listed = std::mem::take(
            &mut *out
                .paths
                .lock()
                .expect("no thread panics while holding the page list"),
        );
        if whole {
            let mut files = std::mem::take(
                &mut *out
                    .files
                    .lock()
                    .expect("no thread panics while holding the lists' files"),
            );
            // In one order whatever order the pages finished in, so that the same lists give the same file.
            listed.sort_unstable();
            files.sort_unstable();
            staging.put(
                lists::FILE,
                &lists::encode(&lists_key, &listed, &files),
                None,
            )?;
            // Pages finish in any order; the sitemap lists them in one.
            let mut paths: Vec<&str> = listed.iter().map(String::as_str).collect();
            paths.extend(archive.entries.iter().map(|entry| entry.url.as_str()));
            paths.sort_unstable();
            staging.put("sitemap.xml", data::sitemap(&paths, base).as_bytes(), None)?;
        }
        Ok(listed.len())
    };
    let pages_done = || -> Result<usize, String> {
        let (site, items) = rayon::join(
            || clock.time(Chain::Lists, listed),
            || clock.time(Chain::ItemPages, item_pages),
        );
        let listed = site?;
        items?;
        Ok(listed)
    };
    let (exported, rendered) = rayon::join(exports, pages_done);
    let images = exported?;
    let listed = rendered?;
    progress.finish();
    // The items' pages are the archive's entries: counted, and listed for the sitemap, without a lock taken
    // for each on every core.
    let pages = listed + archive.entries.len();
    if whole {
        staging.put(reuse::INDEX, &recorder.take_bytes(), None)?;
    }
    Ok(Rendered {
        pages,
        rendered: renderer.rendered.into_inner(),
        kept: renderer.kept.into_inner(),
        images,
        parts_taken: previous.taken(),
        data_kept_whole: previous.files_kept_whole(),
        lists_taken: lists_taken.into_inner(),
        chains: clock.chains(),
    })
}

/// A file beside an item's page.
enum Download<'a> {
    /// One of the item's catalog files published as it was read (the record).
    Text(String, crate::source::FileId),
    /// The item's catalog folder as one archive.
    Folder(String, &'a crate::catalog::Item),
}

impl Download<'_> {
    /// Where it goes in the site.
    fn path(&self) -> &str {
        match self {
            Download::Text(path, _) | Download::Folder(path, _) => path,
        }
    }
}

/// Where pages go: each rendered and written as soon as it is made, so that memory holds a few pages' data at
/// a time rather than the site's, and its path kept for the sitemap.
struct Out<'a> {
    renderer: &'a Renderer<'a>,
    paths: Mutex<Vec<String>>,
    /// The files other than pages that the lists make (the map's outlines), for the next build ([`lists`]).
    files: Mutex<Vec<String>>,
    /// What was kept of the previous build's lists when not all of it could be: the lists, made after all,
    /// pass over these. Set before any list is made, then only read, by every thread.
    kept: OnceLock<HashSet<String>>,
}

impl Out<'_> {
    fn listed(&self, path: &str) {
        self.paths
            .lock()
            .expect("no thread panics while holding the page list")
            .push(path.to_string());
    }

    /// Whether `path` is one of the previous build's lists' files, kept already.
    fn kept_already(&self, path: &str) -> bool {
        self.kept.get().is_some_and(|kept| kept.contains(path))
    }

    /// Keep every file the previous build's lists made ([`lists::Made`]): true when all are kept. Those kept
    /// before one could not be stay kept, and are passed over when the lists are made. Called once, before
    /// any list is made.
    fn keep_lists(&self, made: lists::Made) -> Result<bool, String> {
        let staging = self.renderer.staging;
        let mut kept = HashSet::new();
        let mut all = true;
        for (path, page) in made
            .pages
            .into_iter()
            .map(|p| (p, true))
            .chain(made.files.into_iter().map(|p| (p, false)))
        {
            if !staging.keep_as_it_was(&path)? {
                all = false;
                break;
            }
            if page {
                self.listed(&path);
                self.renderer.kept.fetch_add(1, Ordering::Relaxed);
            } else {
                self.files
                    .lock()
                    .expect("no thread panics while holding the lists' files")
                    .push(path.clone());
            }
            kept.insert(path);
        }
        self.kept
            .set(kept)
            .expect("the previous lists are kept once at most");
        Ok(all)
    }

    /// A file of the lists that is not a page.
    fn file(&self, path: &str, bytes: &[u8]) -> Result<(), String> {
        if self.kept_already(path) {
            return Ok(());
        }
        self.files
            .lock()
            .expect("no thread panics while holding the lists' files")
            .push(path.to_string());
        self.renderer.staging.put(path, bytes, None)
    }

    /// A page whose data decides whether it needs rendering.
    fn page(&self, job: Job) -> Result<(), String> {
        if self.kept_already(&job.path) {
            return Ok(());
        }
        self.listed(&job.path);
        self.renderer.render(job)
    }

    /// A page keyed by what it is made from (see [`Site::list_key`]) and by `template`, which `make` is given
    /// to make it with: not even built when the previous site has it under the same key.
    fn keyed(
        &self,
        path: &str,
        template: &'static str,
        key: Hash,
        make: impl FnOnce(&'static str) -> Job,
    ) -> Result<(), String> {
        if self.kept_already(path) {
            return Ok(());
        }
        self.listed(path);
        let key = crate::fingerprint::key(&self.renderer.template_key(template), [&key[..]]);
        if self.renderer.staging.keep_if_unchanged(path, key)? {
            self.renderer.kept.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        let job = make(template);
        if job.template != template {
            // A page keyed by one template and made with another would be kept after an edit of the one it shows.
            return Err(format!(
                "{path} was keyed by {template} but made with {}",
                job.template
            ));
        }
        self.renderer.render_as(job, key)
    }
}

/// A site-wide file's maker.
type Export<'a> = Box<dyn Fn(&Items<'_>, &mut dyn Sink) -> std::io::Result<()> + Sync + 'a>;

struct Renderer<'a> {
    theme: &'a Theme,
    staging: &'a Staging,
    program: Hash,
    /// Each template's [`template_key`], made once: every item page's key takes one.
    template_keys: HashMap<&'a str, Hash>,
    rendered: AtomicUsize,
    kept: AtomicUsize,
}

/// What a page made with `template` depends on besides its data: the program, and the template with those it
/// uses ([`Theme::fingerprint`]).
fn template_key(program: &Hash, theme: &Theme, template: &str) -> Hash {
    crate::fingerprint::key(program, [&theme.fingerprint(template)[..]])
}

/// Every item's page is made with this template.
const ITEM_TEMPLATE: &str = "item.html";

/// The most items' pages one job of the render makes: a full build of 10,000 items made its pages in 2.1-2.4 s
/// beside the other chains, so a piece is a few milliseconds of work and the last ends soon after the rest; a
/// rebuild, which keeps most pages in microseconds, measured the same with it as without.
const ITEMS_A_PIECE: usize = 8;

impl Renderer<'_> {
    /// [`template_key`] of `template`.
    fn template_key(&self, template: &str) -> Hash {
        match self.template_keys.get(template) {
            Some(key) => *key,
            None => template_key(&self.program, self.theme, template),
        }
    }

    /// An item page's key: the item's key ([`item_key`]) with its template's.
    fn page_key(&self, item_key: &Hash) -> Hash {
        crate::fingerprint::key(&self.template_key(ITEM_TEMPLATE), [&item_key[..]])
    }

    fn render(&self, job: Job) -> Result<(), String> {
        let inputs = self.data_hash(&job)?;
        if self.staging.keep_if_unchanged(&job.path, inputs)? {
            self.kept.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        self.render_as(job, inputs)
    }

    /// Render a page whose inputs hash to `inputs` (known not to be the previous site's).
    fn render_as(&self, mut job: Job, inputs: Hash) -> Result<(), String> {
        super::markup::add_parts(job.template, &mut job.page);
        let mut context = Context::new();
        context.insert("layout", &job.layout);
        // Moved in, not inserted: `insert` would copy the whole page data into a new value first.
        let mut page = serde_json::Map::new();
        page.insert("page".to_string(), job.page);
        context.extend(
            Context::from_value(serde_json::Value::Object(page)).map_err(|e| e.to_string())?,
        );
        let html = self
            .theme
            .render(job.template, &context)
            .map_err(|e| format!("{} ({}): {e}", job.template, job.path))?;
        self.rendered.fetch_add(1, Ordering::Relaxed);
        self.staging.put(&job.path, html.as_bytes(), Some(inputs))
    }

    /// A hash of the page's template data, with the program and its template ([`Renderer::template_key`]).
    fn data_hash(&self, job: &Job) -> Result<Hash, String> {
        let mut hasher = blake3::Hasher::new();
        hasher.update(&self.template_key(job.template));
        hasher.update(job.template.as_bytes());
        hasher.update(b"\0");
        {
            // serde writes a few bytes at a time; the hash is many times faster fed in large blocks.
            let mut buffered = std::io::BufWriter::with_capacity(16 * 1024, &mut hasher);
            serde_json::to_writer(&mut buffered, &job.layout).map_err(|e| e.to_string())?;
            std::io::Write::flush(&mut buffered).map_err(|e| e.to_string())?;
        }
        crate::fingerprint::json_value(&mut hasher, &job.page);
        Ok(*hasher.finalize().as_bytes())
    }
}

/// Draw each distinct diagram of the catalog once, as a picture file named by the hash of its bytes: a
/// thousand copies of a game draw the same few boards.
fn diagram_files(
    archive: &Archive,
    staging: &Staging,
) -> Result<HashMap<usize, DiagramFile>, String> {
    // Every game's rulesets and records are looked at (66,000 records at 10,000 items, at each of the preview
    // server's passes): on every core, each thread keeping the diagrams it finds first, then joined in the
    // entries' order.
    type Found<'a> = (foldhash::HashSet<usize>, Vec<&'a Arc<Diagram>>);
    fn add<'a>((seen, distinct): &mut Found<'a>, diagram: &'a Arc<Diagram>) {
        if seen.insert(diagram_id(diagram)) {
            distinct.push(diagram);
        }
    }
    let (_, distinct) = archive
        .entries
        .par_iter()
        .fold(Found::default, |mut found, entry| {
            // Its rulesets' boards, then its puzzles' starting positions (the puzzles page draws those), from
            // the game's sums: only a page made again reads its game in full.
            for diagram in entry.sums().iter().flat_map(|s| &s.diagrams) {
                add(&mut found, diagram);
            }
            found
        })
        .reduce(Found::default, |mut found, (_, more)| {
            for diagram in more {
                add(&mut found, diagram);
            }
            found
        });
    let drawn: Vec<(usize, DiagramFile, board::Image)> = distinct
        .par_iter()
        .map(|diagram| {
            let image = board::image(diagram);
            let hash = crate::fingerprint::to_hex(&output::hash_bytes(image.svg.as_bytes()));
            let file = DiagramFile {
                path: format!("diagrams/{}.svg", &hash[..20]),
                width: image.width,
                height: image.height,
            };
            (diagram_id(diagram), file, image)
        })
        .collect();
    let mut written: HashSet<&str> = HashSet::new();
    for (_, file, image) in &drawn {
        // Equal drawings that were not shared in memory still make one file.
        if written.insert(&file.path) {
            staging.put(&file.path, image.svg.as_bytes(), None)?;
        }
    }
    Ok(drawn
        .into_iter()
        .map(|(key, file, _)| (key, file))
        .collect())
}

/// What every page and every item's part of the data files is made from besides the items themselves and the
/// templates: the program, the configuration, the published address. Not the bibliography: a page shows only
/// the works its item and the items linked with it cite ([`cited_works`]), and an edit of one entry (or a new
/// one, not yet cited) leaves the pages of the items citing none of it as they were.
fn catalog_key(site: &Site, program: &Hash) -> Hash {
    let catalog = site.archive.catalog;
    let files = catalog
        .config_file
        .iter()
        .map(|&file| catalog.files.get(file).text())
        .collect::<Vec<_>>();
    let files = files.iter().map(|text| text.as_bytes());
    let count = (catalog.config_file.iter().count() as u64).to_le_bytes();
    let rest = [site.options.base_url.as_deref().unwrap_or("").as_bytes()];
    crate::fingerprint::bytes(
        program,
        std::iter::once(&count[..]).chain(files).chain(rest),
    )
}

/// What an item shows of itself in a list (its title, kind, address, rulesets, the thumbnail of its first
/// picture), hashed: its address, what its record says but its descriptions and its rules and game records
/// ([`crate::catalog::Item::listed_hash`]), its pictures as checked (their bytes' hashes), the works it cites
/// and everything of [`catalog_key`]; unlike [`item_key`], not the items it links with. An edit of a
/// description makes none of the lists again.
fn own_key(catalog_key: &Hash, entry: &Entry, cited: &Hash) -> Hash {
    let listed = entry.item.listed_hash();
    let mut parts: Vec<&[u8]> = vec![entry.url.as_bytes(), &listed[..], &cited[..]];
    for image in entry.images {
        parts.extend([image.name.as_bytes(), &image.hash[..]]);
    }
    crate::fingerprint::key(catalog_key, parts)
}

/// What every site-wide list is made from: each item's [`own_key`] in the catalog's order (which covers
/// [`catalog_key`], the item's address, what its record says but its descriptions, its rules and game records,
/// and the works it cites), the bibliography as read, the About text, every template's key and the sizes of
/// the pages. The lists (and the home, About and search pages made beside them) read nothing else.
fn lists_key(site: &Site, renderer: &Renderer) -> Hash {
    let archive = site.archive;
    let catalog = archive.catalog;
    let sizes = Sizes::current();
    let sizes = [sizes.rows, sizes.links, sizes.graph].map(|n| (n as u64).to_le_bytes());
    let bibliography = catalog
        .sources
        .file
        .map(|file| match catalog.files.get(file).unread() {
            Some((hash, _)) => hash,
            None => crate::catalog::stamps::content_hash(catalog.files.get(file).text().as_bytes()),
        });
    let mut templates: Vec<(&&str, &Hash)> = renderer.template_keys.iter().collect();
    templates.sort_unstable();
    let counts = [site.own_keys.len(), templates.len()].map(|n| (n as u64).to_le_bytes());
    let mut parts: Vec<&[u8]> = vec![&counts[0], &counts[1], archive.about.as_bytes()];
    parts.extend(sizes.iter().map(|n| &n[..]));
    parts.push(bibliography.as_ref().map_or(&b""[..], |hash| &hash[..]));
    parts.push(if catalog.sources.unread {
        b"unread"
    } else {
        b"read"
    });
    for (name, key) in templates {
        parts.extend([name.as_bytes(), &key[..]]);
    }
    parts.extend(site.own_keys.iter().map(|key| &key[..]));
    crate::fingerprint::key(&site.catalog_key, parts)
}

/// Each work of the bibliography hashed as parsed (its type, key, fields and names, with the name of its page),
/// and each entry's works cited: the hashes of every work its values and rulesets cite, hashed. A work changed
/// by hand changes these for the items citing it and no other.
fn cited_works(archive: &Archive) -> (Vec<Hash>, Vec<Hash>) {
    let works: Vec<Hash> = archive
        .sources
        .par_iter()
        .map(|source| {
            let entry = source.entry;
            let mut parts: Vec<&[u8]> = vec![
                source.slug.as_bytes(),
                entry.kind.as_bytes(),
                entry.key.value.as_bytes(),
            ];
            for field in &entry.fields {
                parts.extend([
                    field.name.as_bytes(),
                    field.value.as_bytes(),
                    field.raw.as_bytes(),
                ]);
            }
            let names = (entry.authors.len() as u64).to_le_bytes();
            parts.push(&names);
            parts.extend(
                entry
                    .authors
                    .iter()
                    .chain(&entry.editors)
                    .map(|n| n.as_bytes()),
            );
            crate::fingerprint::key(&Hash::default(), parts)
        })
        .collect();
    let mut cites: Vec<Vec<usize>> = vec![Vec::new(); archive.entries.len()];
    for (s, source) in archive.sources.iter().enumerate() {
        for citation in &source.citations {
            let of = &mut cites[citation.item];
            if of.last() != Some(&s) {
                of.push(s);
            }
        }
    }
    let cited = cites
        .par_iter()
        .map(|sources| {
            crate::fingerprint::key(&Hash::default(), sources.iter().map(|&s| &works[s][..]))
        })
        .collect();
    (works, cited)
}

/// What an item's page and its parts of the data files are made from, hashed without building the page: the
/// item's own files, the files of every item it links to or is linked from (their titles, kinds and rules
/// appear on it), the works each of those cites ([`cited_works`]), the names and page names of its tags, places
/// and people, and `catalog_key` (the program, the configuration and the published address). When its
/// [`Renderer::page_key`] is the hash the previous site recorded for the page, the page cannot have changed,
/// and neither its data nor the page is made again. Where the item lies in the catalog is not part of it, and
/// nothing on the page may depend on that: adding, removing or moving one item then leaves every other item's
/// page, and its parts of the data files, as they were, rather than those of every item after it in the
/// catalog's order.
fn item_key(site: &Site, catalog_key: &Hash, index: usize, entry: &Entry) -> Hash {
    let archive = site.archive;
    let mut parts: Vec<&[u8]> = vec![entry.url.as_bytes()];
    let mut linked: Vec<usize> = vec![index];
    for relation in entry.relations.iter().chain(&entry.inverse) {
        if let Target::Item(t, _) = relation.target {
            linked.push(t);
        }
    }
    linked.extend(entry.boards.iter().map(|(b, _)| *b));
    linked.extend(entry.played_with.iter().map(|(g, _)| *g));
    linked.extend(&entry.evidence);
    linked.extend(&entry.attests);
    linked[1..].sort_unstable();
    for &e in &linked {
        let other = &archive.entries[e];
        parts.extend([
            other.url.as_bytes(),
            &other.files_hash[..],
            &site.cited[e][..],
        ]);
    }
    for (facets, which) in [
        (&archive.tags, &entry.tags),
        (&archive.places, &entry.places),
    ] {
        for &f in which {
            parts.extend([facets[f].name.as_bytes(), facets[f].slug.as_bytes()]);
        }
    }
    for &p in &entry.people {
        let person = &archive.people[p];
        parts.extend([person.name.as_bytes(), person.slug.as_bytes()]);
    }
    crate::fingerprint::key(catalog_key, parts)
}

fn count_by<T: Ord + Clone>(values: impl Iterator<Item = T>) -> Vec<(T, usize)> {
    let mut counts: std::collections::BTreeMap<T, usize> = std::collections::BTreeMap::new();
    for v in values {
        *counts.entry(v).or_default() += 1;
    }
    let mut out: Vec<(T, usize)> = counts.into_iter().collect();
    out.sort_by_key(|(_, n)| Reverse(*n));
    out
}

fn home(site: &Site) -> Job {
    let path = "index.html".to_string();
    let archive = site.archive;
    let config = &archive.catalog.config;
    let mut layout = site.layout(&path, &config.title, &config.description, "home");
    layout.ld = Some(json!({
        "@context": "https://schema.org",
        "@type": "WebSite",
        "name": config.title,
        "description": one_line(&config.description),
    }));
    let root = "";
    let kinds: Vec<Link> = [Kind::Game, Kind::Board, Kind::Evidence]
        .iter()
        .map(|&k| {
            let n = archive.entries.iter().filter(|e| e.kind == k).count();
            Link {
                href: format!("browse/index.html#kind={}", k.as_str()),
                text: match k {
                    Kind::Game => "Games",
                    Kind::Board => "Boards",
                    Kind::Evidence => "Evidence",
                }
                .to_string(),
                note: Some(n.to_string()),
                lang: None,
            }
        })
        .collect();
    let mut regions: Vec<&Facet> = archive.places.iter().collect();
    regions.sort_by_key(|f| Reverse(f.items.len()));
    let regions: Vec<Link> = regions
        .iter()
        .take(12)
        .map(|f| Link {
            href: format!("places/{}/index.html", f.slug),
            text: f.name.clone(),
            note: Some(f.items.len().to_string()),
            lang: None,
        })
        .collect();
    let families: Vec<Link> = count_by(
        archive
            .entries
            .iter()
            .filter_map(|e| e.sums()?.family)
            .map(family_name),
    )
    .into_iter()
    .map(|(name, n)| Link {
        href: format!("browse/index.html#family={}", name.replace(' ', "+")),
        text: name.to_string(),
        note: Some(n.to_string()),
        lang: None,
    })
    .collect();
    let mut recent: Vec<usize> = (0..archive.entries.len()).collect();
    // Newest record date first; records without one keep catalog order, after the dated ones (a stable sort).
    recent.sort_by_key(|&i| Reverse(archive.entries[i].added));
    let recent: Vec<Link> = recent
        .into_iter()
        .take(6)
        .map(|i| {
            let e = &archive.entries[i];
            site.item_link(root, i, Some(kind_label(e.kind).to_string()))
        })
        .collect();
    let page = json!({
        "intro": markdown::to_html(&config.description, 1),
        "total": archive.entries.len(),
        "kinds": kinds,
        "regions": regions,
        "families": families,
        "recent": recent,
        "tags": archive.tags.len(),
        "sources": archive.sources.len(),
    });
    site.job(path, "home.html", layout, page)
}

/// Facet values of one row of a filterable table: (facet key, values).
type RowFacets = Vec<(&'static str, Vec<String>)>;

/// Facet values of an entry, for browse filters: (facet key, values).
fn entry_facets(archive: &Archive, entry: &Entry) -> RowFacets {
    let [kind, family, mechanics, players, size] = listed_facets(entry);
    vec![
        kind,
        (
            "tag",
            entry
                .tags
                .iter()
                .map(|&t| archive.tags[t].name.clone())
                .collect(),
        ),
        (
            "place",
            entry
                .places
                .iter()
                .map(|&p| archive.places[p].name.clone())
                .collect(),
        ),
        family,
        mechanics,
        players,
        size,
    ]
}

/// The values of an entry's facets that have lists of their own ([`LISTED_FACETS`], in that order).
fn listed_facets(entry: &Entry) -> [(&'static str, Vec<String>); LISTED_FACETS.len()] {
    // The distinct values are found before any is written out: a game of twenty rulesets has a few.
    let mut kinds: Vec<&str> = Vec::new();
    let mut counts: Vec<u8> = Vec::new();
    let mut points: Vec<usize> = Vec::new();
    let mut family = Vec::new();
    let mut word = "";
    if let Some(rules) = entry.rules() {
        if let Some(f) = rules.family {
            family.push(family_name(f).to_string());
        }
        word = point_word(rules.family);
        for r in &rules.rulesets {
            if let Some(facts) = &r.facts {
                kinds.extend(facts.move_kinds.iter().map(String::as_str));
                counts.push(facts.players);
                points.push(facts.points);
            }
        }
    }
    kinds.sort_unstable();
    kinds.dedup();
    counts.sort_unstable();
    counts.dedup();
    points.sort_unstable();
    points.dedup();
    let mechanics: Vec<String> = kinds.into_iter().map(str::to_string).collect();
    // Sorted as the texts they are shown as, as the filters list them.
    let mut players: Vec<String> = counts.iter().map(u8::to_string).collect();
    players.sort_unstable();
    let mut size: Vec<String> = points.iter().map(|p| format!("{p} {word}")).collect();
    size.sort_unstable();
    [
        ("kind", vec![entry.kind.as_str().to_string()]),
        ("family", family),
        ("mechanics", mechanics),
        ("players", players),
        ("size", size),
    ]
}

const FACET_LABELS: [(&str, &str); 7] = [
    ("kind", "Kind"),
    ("family", "Game family"),
    ("mechanics", "Moves"),
    ("players", "Players"),
    ("size", "Board size"),
    ("tag", "Tags"),
    ("place", "Places"),
];

/// Filter groups with counts, from rows of facet values.
fn facet_groups<R: std::borrow::Borrow<RowFacets>>(
    rows: &[R],
    labels: &[(&str, &str)],
) -> Vec<serde_json::Value> {
    let mut counts = FacetCounts::default();
    for row in rows {
        counts.add(row.borrow());
    }
    counts.groups(labels)
}

/// How many rows have each value of each facet, gathered a row at a time: a list need not hold every row's
/// facets to count them.
#[derive(Default)]
pub(super) struct FacetCounts(
    std::collections::BTreeMap<&'static str, std::collections::BTreeMap<String, usize>>,
);

impl FacetCounts {
    pub(super) fn add(&mut self, row: &RowFacets) {
        for (key, values) in row {
            let counts = self.0.entry(key).or_default();
            for value in values {
                match counts.get_mut(value.as_str()) {
                    Some(n) => *n += 1,
                    None => {
                        counts.insert(value.clone(), 1);
                    }
                }
            }
        }
    }

    /// The filter groups, in the order of `labels`: each facet's values by count, most first, then by value.
    pub(super) fn groups(&self, labels: &[(&str, &str)]) -> Vec<serde_json::Value> {
        labels
            .iter()
            .filter_map(|(key, label)| {
                let counts = self.0.get(key).filter(|c| !c.is_empty())?;
                let mut values: Vec<(&String, &usize)> = counts.iter().collect();
                values.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
                let mut group = json!({ "key": key, "label": label });
                group["values"] = values
                    .iter()
                    .map(|(v, n)| json!({ "value": v, "count": n }))
                    .collect();
                Some(group)
            })
            .collect()
    }
}

/// What a browse row shows of an item besides its link, which depends on the page's depth: its region, date and
/// year, its title and region folded (as the table sorts them), and its facets for the filter script
/// ([`facet_data`]). Browse holds one for every item while its pages are made, at the render's peak of memory:
/// the six texts are one string, where six strings took a hundred bytes more a row.
/// An item's [`RowParts`], made when first asked for.
type RowOf<'r> = dyn Fn(usize) -> &'r RowParts + Sync + 'r;

struct RowParts {
    text: Box<str>,
    /// Where each text but the last ends in `text`.
    ends: [u32; 5],
}

impl RowParts {
    fn of(archive: &Archive, e: &Entry, facets: &RowFacets) -> RowParts {
        let region = e
            .places
            .first()
            .map_or("", |&p| archive.places[p].name.as_str());
        let parts = [
            region.to_string(),
            values::date_label(e.item),
            e.year.map(|y| y.to_string()).unwrap_or_default(),
            crate::archive::text::fold(&e.title),
            crate::archive::text::fold(region),
            facet_data(facets),
        ];
        let mut text = String::with_capacity(parts.iter().map(String::len).sum());
        let mut ends = [0u32; 5];
        for (n, part) in parts.iter().enumerate() {
            text.push_str(part);
            if let Some(end) = ends.get_mut(n) {
                // A row's texts are a few hundred bytes.
                *end = u32::try_from(text.len()).unwrap_or(u32::MAX);
            }
        }
        RowParts {
            text: text.into_boxed_str(),
            ends,
        }
    }

    /// Text `n` of [`RowParts::of`]'s six.
    fn part(&self, n: usize) -> &str {
        let start = n.checked_sub(1).map_or(0, |p| self.ends[p] as usize);
        let end = self.ends.get(n).map_or(self.text.len(), |&e| e as usize);
        &self.text[start..end]
    }

    fn region(&self) -> &str {
        self.part(0)
    }

    fn date(&self) -> &str {
        self.part(1)
    }

    fn year(&self) -> &str {
        self.part(2)
    }

    fn sort_title(&self) -> &str {
        self.part(3)
    }

    fn sort_region(&self) -> &str {
        self.part(4)
    }

    fn data(&self) -> &str {
        self.part(5)
    }
}

/// Facet values as one data attribute: `|a|b|` (bars inside values become slashes).
fn facet_attr(values: &[String]) -> String {
    if values.is_empty() {
        return String::new();
    }
    let cleaned: Vec<String> = values.iter().map(|v| v.replace('|', "/")).collect();
    format!("|{}|", cleaned.join("|"))
}

/// A row's facets as the filter script reads them: ` data-f-KEY="|a|b|"` for each facet with a value, escaped.
/// Made here once per row rather than by a loop in the template, which cost more than the rest of the row.
pub(super) fn facet_data(facets: &[(&'static str, Vec<String>)]) -> String {
    let mut data = String::new();
    for (key, values) in facets {
        if values.is_empty() {
            continue;
        }
        data.push_str(" data-f-");
        data.push_str(key);
        data.push_str("=\"");
        super::theme::push_escaped(&mut data, &facet_attr(values));
        data.push('"');
    }
    data
}

/// A facet value with a list of its own when browse runs to several pages: (value, folder of its list, items).
type FacetList = (String, String, Vec<usize>);

/// The listed facets, each with its label and values.
type FacetLists = [(&'static str, &'static str, Vec<FacetList>)];

/// The facets whose values get lists of their own under `browse/<key>/<value>/` when browse runs to several
/// pages. Tags and places are left out: each already has a page listing its items.
const LISTED_FACETS: [&str; 5] = ["kind", "family", "mechanics", "players", "size"];

/// Browse: every item by title, in pages of a fixed size. Each page filters and sorts its own rows in the
/// browser. When there is more than one page, filters alone would only ever see one page, so every value of the
/// small facets (kind, game family, moves, players, board size) also gets a list of every item with it, paged
/// the same way, and every browse page links to those lists and to the tag and place indexes.
fn browse(site: &Site, out: &Out) -> Result<(), String> {
    let archive = site.archive;
    let sizes = Sizes::current();
    // Every item's row's words, which every browse page it is on shows alike (an item is on the list of every
    // item and on one list per facet value it has): made once, by the first page that shows the item. A
    // rebuild after an edit makes again only the pages that show the edited items, and so only their rows.
    // Its facets are made again where a page needs them rather than held for every item (hundreds of bytes
    // an item, at the render's peak).
    let rows: Vec<OnceLock<RowParts>> = archive.entries.iter().map(|_| OnceLock::new()).collect();
    let row = |i: usize| -> &RowParts {
        rows[i].get_or_init(|| {
            let e = &archive.entries[i];
            RowParts::of(archive, e, &entry_facets(archive, e))
        })
    };
    // Sorted as the table sorts: by the folded title, as a row holds it.
    let titles: Vec<String> = archive
        .entries
        .par_iter()
        .map(|e| crate::archive::text::fold(&e.title))
        .collect();
    let mut order: Vec<usize> = (0..archive.entries.len()).collect();
    order.sort_by(|&a, &b| {
        titles[a]
            .cmp(&titles[b])
            .then_with(|| archive.entries[a].url.cmp(&archive.entries[b].url))
    });
    drop(titles);

    let mut lists: Vec<(&'static str, &'static str, Vec<FacetList>)> = Vec::new();
    if order.len() > sizes.rows {
        // The items of each value of each listed facet, in browse order.
        let mut by_key: [std::collections::BTreeMap<String, Vec<usize>>; LISTED_FACETS.len()] =
            Default::default();
        for &i in &order {
            for (at, (_, values)) in listed_facets(&archive.entries[i]).into_iter().enumerate() {
                for v in values {
                    by_key[at].entry(v).or_default().push(i);
                }
            }
        }
        for (key, by_value) in LISTED_FACETS.into_iter().zip(by_key) {
            let label = FACET_LABELS
                .iter()
                .find(|(k, _)| *k == key)
                .map_or(key, |(_, l)| *l);
            let mut by_value: Vec<(String, Vec<usize>)> = by_value.into_iter().collect();
            // Numbers in their order (16 holes before 104 holes), then the rest by text.
            by_value.sort_by_cached_key(|(value, _)| {
                let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
                (digits.parse::<u64>().unwrap_or(u64::MAX), value.to_string())
            });
            let mut used = std::collections::HashSet::new();
            let values: Vec<FacetList> = by_value
                .into_iter()
                .map(|(value, items)| {
                    let base = crate::archive::text::slug(&value);
                    let mut slug = base.clone();
                    let mut n = 2;
                    while !used.insert(slug.clone()) {
                        slug = format!("{base}-{n}");
                        n += 1;
                    }
                    (value, format!("browse/{key}/{slug}"), items)
                })
                .collect();
            if !values.is_empty() {
                lists.push((key, label, values));
            }
        }
    }

    // What every browse page shows of the lists: their values, where they are and how long.
    let mut shared = format!(
        "{}|{}|{}",
        sizes.rows,
        archive.tags.len(),
        archive.places.len()
    );
    for (key, label, values) in &lists {
        for (value, folder, items) in values {
            shared.push_str(&format!(
                "\u{0}{key}\u{0}{label}\u{0}{value}\u{0}{folder}\u{0}{}",
                items.len()
            ));
        }
    }
    let shared = crate::fingerprint::to_hex(&output::hash_bytes(shared.as_bytes()));
    let lists_of = (&row as &RowOf, &lists[..], shared.as_str());
    browse_pages(site, "browse", None, &order, lists_of, out)?;
    let each: Vec<(&str, &str, &FacetList)> = lists
        .iter()
        .flat_map(|(key, label, values)| values.iter().map(move |v| (*key, *label, v)))
        .collect();
    each.par_iter()
        .try_for_each(|(key, label, (value, folder, items))| {
            browse_pages(
                site,
                folder,
                Some((key, label, value)),
                items,
                lists_of,
                out,
            )
        })
}

/// The pages of one browse list: every item (`only` is `None`) or the items with one facet value.
fn browse_pages(
    site: &Site,
    folder: &str,
    only: Option<(&str, &str, &str)>,
    items: &[usize],
    (row_parts, lists, shared): (&RowOf, &FacetLists, &str),
    out: &Out,
) -> Result<(), String> {
    let archive = site.archive;
    let sizes = Sizes::current();
    let (heading, description) = match only {
        None => (
            "Browse the archive".to_string(),
            "Every game, board and evidence item, with filters.".to_string(),
        ),
        Some((_, label, value)) => (
            format!("{label}: {value}"),
            format!("Every item of the archive with {label}: {value}."),
        ),
    };
    for slot in paginate::slots(folder, "items", paginate::split(items.to_vec(), sizes.rows)) {
        let numbers = slot.place();
        let paginate::Slot {
            number,
            pages,
            path,
            root,
            pager,
            items: chunk,
        } = slot;
        let key = site.list_key(
            &[
                b"browse",
                path.as_bytes(),
                heading.as_bytes(),
                description.as_bytes(),
                numbers.as_bytes(),
                shared.as_bytes(),
            ],
            &site.keys,
            chunk.iter().copied(),
        );
        let page_path = path.clone();
        out.keyed(&page_path, "browse.html", key, |template| {
        let title = page_title(&heading, number, pages);
        let mut layout = site.layout(&path, &title, &description, "browse");
        layout.ld = Some(meta::collection_page(&title));
        let page_facets: Vec<RowFacets> = chunk
            .iter()
            .map(|&i| entry_facets(archive, &archive.entries[i]))
            .collect();
        let rows: Vec<serde_json::Value> = chunk
            .iter()
            .map(|&i| {
                let e = &archive.entries[i];
                let p = row_parts(i);
                json!({
                    "href": format!("{root}{}", e.url),
                    "title": e.title,
                    "kind": kind_label(e.kind),
                    "region": p.region(),
                    "date": p.date(),
                    "year": p.year(),
                    "sort_title": p.sort_title(),
                    "thumbnail": super::media::thumbnail(e, &root),
                    "sort_region": p.sort_region(),
                    "data": p.data(),
                })
            })
            .collect();
        let mut list_groups: Vec<serde_json::Value> = lists
            .iter()
            .map(|(key, label, values)| {
                json!({
                    "key": key,
                    "label": label,
                    "values": values.iter().map(|(value, folder, items)| json!({
                        "value": value,
                        "href": format!("{root}{folder}/index.html"),
                        "count": paginate::thousands(items.len()),
                        "current": only.is_some_and(|(k, _, v)| k == *key && v == value),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        if !lists.is_empty() {
            for (key, label, folder, count) in [
                ("tag", "Tags", "tags", archive.tags.len()),
                ("place", "Places", "places", archive.places.len()),
            ] {
                if count > 0 {
                    list_groups.push(json!({
                        "key": key,
                        "label": label,
                        "values": [{
                            "value": "",
                            "text": format!("every {}, each with its own page", &folder[..folder.len() - 1]),
                            "href": format!("{root}{folder}/index.html"),
                            "count": paginate::thousands(count),
                            "current": false,
                        }],
                    }));
                }
            }
        }
        let mut page = json!({
            "heading": heading,
            "kicker": only.map(|_| Link {
                href: format!("{root}browse/index.html"),
                text: "Browse the archive".into(),
                note: None,
                lang: None,
            }),
            "pager": pager,
        });
        // Moved in: `json!` copies every value it is given.
        page["groups"] = Json::Array(facet_groups(&page_facets, &FACET_LABELS));
        page["rows"] = Json::Array(rows);
        page["lists"] = Json::Array(list_groups);
        site.job(path, template, layout, page)
        })?;
    }
    Ok(())
}

/// The title of page `number` of `pages` of a list: the list's own title on its first page, so that a list
/// that fits on one page reads as it always has.
fn page_title(title: &str, number: usize, pages: usize) -> String {
    if number <= 1 {
        title.to_string()
    } else {
        format!("{title}, page {number} of {pages}")
    }
}

fn search_page(site: &Site) -> Job {
    let path = "search/index.html".to_string();
    let layout = site.layout(&path, "Search", "Search the archive.", "search");
    site.job(path, "search.html", layout, json!({}))
}

fn about(site: &Site) -> Job {
    let path = "about/index.html".to_string();
    let layout = site.layout(&path, "About", "About this archive and its data.", "about");
    let page = json!({
        "html": markdown::to_html(&site.archive.about, 1),
        "downloads": [
            { "href": "../catalog.json", "text": "catalog.json", "note": "every record and its values, the computed relations and the facts of each ruleset" },
            { "href": "../catalog.csv", "text": "catalog.csv", "note": "one row per item, one column per term" },
            { "href": "../oai-pmh.xml", "text": "oai-pmh.xml", "note": "an OAI-PMH static repository (oai_dc)" },
            { "href": "../sitemap.xml", "text": "sitemap.xml", "note": "every page" },
        ],
    });
    site.job(path, "about.html", layout, page)
}

/// Variants: the graph of how games relate and the same as a list, by title. The list is paged; the graph is
/// drawn on the first page only, and when the catalog holds more games than the graph can show readably, it
/// shows only games related to another catalogued game, whole groups of related games at a time (the biggest
/// groups first), up to a fixed number of games. Every game is still in the list.
///
/// Each page is rendered as soon as it is made: the lists together hold every game's relations, and at 100,000
/// items the data of all the pages at once was a hundred megabytes at the build's peak of memory.
fn variants(site: &Site, out: &Out) -> Result<(), String> {
    let archive = site.archive;
    let sizes = Sizes::current();
    let mut games: Vec<usize> = (0..archive.entries.len())
        .filter(|&i| archive.entries[i].kind == Kind::Game)
        .collect();
    let folded: Vec<String> = archive
        .entries
        .iter()
        .map(|e| crate::archive::text::fold(&e.title))
        .collect();
    games.sort_by(|&a, &b| {
        folded[a]
            .cmp(&folded[b])
            .then_with(|| archive.entries[a].url.cmp(&archive.entries[b].url))
    });
    let position: std::collections::HashMap<usize, usize> =
        games.iter().enumerate().map(|(n, &i)| (i, n)).collect();
    // Every relation between two catalogued games, once, by position in `games`.
    let mut edges = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (n, &i) in games.iter().enumerate() {
        for r in &archive.entries[i].relations {
            let Target::Item(t, _) = r.target else {
                continue;
            };
            let Some(&m) = position.get(&t) else { continue };
            let edge = match r.term {
                "isVersionOf" => graph::Edge::VersionOf(n, m),
                "hasVersion" => graph::Edge::VersionOf(m, n),
                _ => graph::Edge::Related(n, m),
            };
            let key = match edge {
                graph::Edge::VersionOf(a, b) => (0, a, b),
                graph::Edge::Related(a, b) => (1, a, b),
            };
            if seen.insert(key) {
                edges.push(edge);
            }
        }
    }
    let drawn = graph::bounded(games.len(), &edges, sizes.graph);
    let shown_all = drawn.len() == games.len();

    let slots = paginate::slots(
        "variants",
        "games",
        paginate::split(games.clone(), sizes.rows),
    );
    let graph_note = (!shown_all).then(|| format!(
        "The graph shows {} of the {} catalogued games: the biggest groups of games related to one another. Every game is in the list below.",
        paginate::thousands(drawn.len()),
        paginate::thousands(games.len()),
    ));
    let make = |slot: paginate::Slot<usize>| -> Job {
        let paginate::Slot {
            number,
            pages,
            path,
            root,
            pager,
            items: chunk,
        } = slot;
        let layout = site.layout(
            &path,
            &page_title("Variants", number, pages),
            "How the catalogued games relate to one another.",
            "variants",
        );
        let svg = (number == 1).then(|| {
            // Positions in `games` renumbered to positions among the drawn games.
            let renumber: std::collections::HashMap<usize, usize> =
                drawn.iter().enumerate().map(|(k, &g)| (g, k)).collect();
            let nodes: Vec<graph::Node> = drawn
                .iter()
                .map(|&g| graph::Node {
                    title: archive.entries[games[g]].title.clone(),
                    href: format!("{root}{}", archive.entries[games[g]].url),
                })
                .collect();
            let shown_edges: Vec<graph::Edge> = edges
                .iter()
                .filter_map(|e| match *e {
                    graph::Edge::VersionOf(a, b) => Some(graph::Edge::VersionOf(
                        *renumber.get(&a)?,
                        *renumber.get(&b)?,
                    )),
                    graph::Edge::Related(a, b) => {
                        Some(graph::Edge::Related(*renumber.get(&a)?, *renumber.get(&b)?))
                    }
                })
                .collect();
            graph::svg(&nodes, &shown_edges)
        });
        let list: Vec<serde_json::Value> = chunk
            .iter()
            .map(|&i| {
                let entry = &archive.entries[i];
                let mut of = Vec::new();
                let mut related = Vec::new();
                for r in &entry.relations {
                    let Target::Item(t, _) = r.target else {
                        continue;
                    };
                    if !position.contains_key(&t) {
                        continue;
                    }
                    match r.term {
                        "isVersionOf" => of.push(site.item_link(&root, t, None)),
                        "hasVersion" => {}
                        _ => related.push(site.item_link(&root, t, None)),
                    }
                }
                let names = entry
                    .relations
                    .iter()
                    .filter(|r| matches!(r.target, Target::Name(_)))
                    .count();
                json!({
                    "game": site.item_link(&root, i, None),
                    "of": of,
                    "related": related,
                    "uncatalogued": names,
                })
            })
            .collect();
        let page = json!({
            "svg": svg,
            "graph_note": graph_note,
            "first_href": format!("{root}variants/index.html"),
            "list": list,
            "pager": pager,
        });
        site.job(path, "variants.html", layout, page)
    };
    slots.into_par_iter().try_for_each(|slot| {
        // The first page draws the graph of every related game: known by its data. Each other page shows
        // its games with the games they name, which their keys cover (titles, and whether a named item
        // is a catalogued game), so a page whose games are unchanged is not even made.
        if slot.number == 1 {
            return out.page(make(slot));
        }
        let key = site.list_key(
            &[
                b"variants",
                slot.path.as_bytes(),
                slot.place().as_bytes(),
                graph_note.as_deref().unwrap_or("").as_bytes(),
            ],
            &site.keys,
            slot.items.iter().copied(),
        );
        let path = slot.path.clone();
        out.keyed(&path, "variants.html", key, |_| make(slot))
    })
}

/// The rules at a glance: one row per ruleset with facts, the rulesets of a game together, games by title.
/// Paged by game (a game's rulesets never straddle two pages); each page filters and sorts its own rows.
fn rules_page(site: &Site, out: &Out) -> Result<(), String> {
    let archive = site.archive;
    let sizes = Sizes::current();
    let games = entries_by_title(archive, |_, e| {
        e.rules()
            .is_some_and(|r| r.rulesets.iter().any(|r| r.facts.is_some()))
    });
    // (entry, ruleset) pairs, grouped by game.
    let groups: Vec<Vec<(usize, usize)>> = games
        .iter()
        .map(|&i| {
            let rules = archive.entries[i].rules().expect("filtered above");
            (0..rules.rulesets.len())
                .filter(|&r| rules.rulesets[r].facts.is_some())
                .map(|r| (i, r))
                .collect()
        })
        .collect();
    let chunks = paginate::split_groups(groups, sizes.rows);
    let labels = [
        ("family", "Game family"),
        ("mechanics", "Moves"),
        ("captures", "Captures"),
        ("ends", "How a game ends"),
        ("players", "Players"),
        ("size", "Board size"),
        ("type", "Ruleset type"),
    ];
    keyed_pages(
        site,
        out,
        ("rules", "rulesets", "rules.html"),
        (b"", &site.keys),
        chunks,
        |&(_, r), out| {
            let _ = write!(out, "{r},");
        },
        |&(i, _)| i,
        |slot, template| {
            slot_job(
                site,
                slot,
                (
                    "Rules at a glance",
                    "Facts derived from the executable rules of every ruleset.",
                    "rules",
                ),
                template,
                |_, root, chunk, pager| {
                    let (rows, facets) = facts_rows(site, root, &chunk);
                    let mut page = json!({ "pager": pager });
                    // Moved in: `json!` copies every value it is given.
                    page["groups"] = Json::Array(facet_groups(&facets, &labels));
                    page["rows"] = Json::Array(rows);
                    page
                },
            )
        },
    )
}

/// The entries `keep` accepts, by folded title, then by address (so that the order never depends on the input's).
fn entries_by_title(archive: &Archive, keep: impl Fn(usize, &Entry) -> bool) -> Vec<usize> {
    let mut found: Vec<(String, usize)> = archive
        .entries
        .iter()
        .enumerate()
        .filter(|&(i, e)| keep(i, e))
        .map(|(i, e)| (crate::archive::text::fold(&e.title), i))
        .collect();
    found.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| archive.entries[a.1].url.cmp(&archive.entries[b.1].url))
    });
    found.into_iter().map(|(_, i)| i).collect()
}

/// One puzzle of the archive: the game it belongs to and its record's place among the game's records.
struct PuzzleRef {
    entry: usize,
    record: usize,
}

/// Every puzzle of the archive (game records of kind `puzzle`), by game title, then by file name.
fn puzzles(archive: &Archive) -> Vec<PuzzleRef> {
    // Each record looked at once, on every core: every build looks through every game record of the catalog
    // (66,000 at 10,000 items) for the few puzzles.
    let own: Vec<Vec<usize>> = archive
        .entries
        .par_iter()
        .map(|e| {
            (0..e.item.game_records.len())
                .filter(|&n| e.is_puzzle(n))
                .collect()
        })
        .collect();
    let games = entries_by_title(archive, |i, _| !own[i].is_empty());
    let mut out = Vec::new();
    for entry in games {
        let game = &archive.entries[entry];
        let mut records: Vec<(std::borrow::Cow<str>, usize)> = own[entry]
            .iter()
            .filter_map(|&n| Some((game.game_record(n)?.file_name, n)))
            .collect();
        records.sort_by(|a, b| a.0.cmp(&b.0));
        out.extend(
            records
                .into_iter()
                .map(|(_, record)| PuzzleRef { entry, record }),
        );
    }
    out
}

/// The puzzles page: every puzzle with its game, question, side to move, the ruleset it is played on, a
/// diagram of its position and a link that opens it on the game's board (`#record=<id>`, docs/board.md).
/// Keyed, like the other lists, by the games it shows, so it is not built again while none of them changed.
/// The solution is never written here: no moves, no comments.
fn puzzles_page(site: &Site, out: &Out) -> Result<(), String> {
    let archive = site.archive;
    let chunks = paginate::split(puzzles(archive), Sizes::current().rows);
    keyed_pages(
        site,
        out,
        ("puzzles", "puzzles", "puzzles.html"),
        (b"", &site.keys),
        chunks,
        |p, out| {
            let _ = write!(out, "{}:{},", p.entry, p.record);
        },
        |p| p.entry,
        |slot, template| {
            slot_job(
                site,
                slot,
                (
                    "Puzzles",
                    "Every puzzle of the archive: a position, a question, and the board to solve it on.",
                    "puzzles",
                ),
                template,
                |_, root, chunk, pager| {
                    let rows: Vec<serde_json::Value> =
                        chunk.iter().map(|p| puzzle_row(site, root, p)).collect();
                    json!({ "puzzles": rows, "pager": pager })
                },
            )
        },
    )
}

/// The pages of a list, in parallel, each keyed by what it shows ([`Site::list_key`]): the list's folder,
/// `shared` (whatever every page of the list shows besides its items and the catalog-wide files: a tag's
/// name, a place's point), the page's address and place in the list, what `listed` writes of each of its items
/// (which ruleset, which record: what the items' keys do not say) and the keys (of `keys`) of the items `entry`
/// names. `make` builds a page only when the previous site has none under its key.
#[allow(clippy::too_many_arguments)]
fn keyed_pages<T: Send + Sync>(
    site: &Site,
    out: &Out,
    (folder, noun, template): (&str, &str, &'static str),
    (shared, keys): (&[u8], &[Hash]),
    chunks: Vec<Vec<T>>,
    listed: impl Fn(&T, &mut String) + Sync,
    entry: impl Fn(&T) -> usize + Sync,
    make: impl Fn(paginate::Slot<T>, &'static str) -> Job + Sync,
) -> Result<(), String> {
    paginate::slots(folder, noun, chunks)
        .into_par_iter()
        .try_for_each(|slot| {
            let numbers = slot.place();
            // Written into one text for the page, not a text for each item joined after.
            let mut shown = String::new();
            for item in &slot.items {
                listed(item, &mut shown);
            }
            let key = site.list_key(
                &[
                    folder.as_bytes(),
                    shared,
                    slot.path.as_bytes(),
                    numbers.as_bytes(),
                    shown.as_bytes(),
                ],
                keys,
                slot.items.iter().map(&entry),
            );
            let path = slot.path.clone();
            out.keyed(&path, template, key, |template| make(slot, template))
        })
}

/// What the puzzles page shows of one puzzle.
fn puzzle_row(site: &Site, root: &str, puzzle: &PuzzleRef) -> serde_json::Value {
    let entry = &site.archive.entries[puzzle.entry];
    let record = entry
        .game_record(puzzle.record)
        .expect("a puzzle is found among its game's records");
    let summary = entry
        .game()
        .and_then(|g| g.records.get(puzzle.record))
        .and_then(Option::as_ref);
    let rules = entry.rules();
    let sides: &[String] = rules.map_or(&[], |r| r.sides.as_slice());
    // A record without a `Ruleset` tag is played under the first ruleset, as the board plays it.
    let ruleset = rules.and_then(|r| match &record.ruleset {
        Some(name) => r.rulesets.iter().find(|x| *x.name == **name),
        None => r.rulesets.first(),
    });
    let id = record.file_name.trim_end_matches(".game");
    let title = record.title.unwrap_or(id).to_string();
    let start = summary.and_then(|s| s.start.as_ref());
    let to_move = start.map(|s| {
        sides
            .get(usize::from(s.to_move))
            .cloned()
            .unwrap_or_else(|| format!("Side {}", s.to_move + 1))
    });
    let image = start.and_then(|s| {
        site.diagram_image(
            root,
            &s.diagram,
            format!("{}, {}: the position of the puzzle", entry.title, title),
            board::describe_position(&s.diagram, sides),
        )
    });
    let ruleset_title = ruleset.map(|r| r.title.clone()).filter(|t| !t.is_empty());
    let several = rules.is_some_and(|r| r.rulesets.len() > 1);
    json!({
        "id": format!("{}-{}", anchor(&entry.item.id), anchor(id)),
        "game": entry.title,
        "title": title,
        "question": summary.and_then(|s| s.tag("Question")),
        "to_move": to_move,
        "ruleset": ruleset_title,
        // Where the game has several rulesets the link names the one the puzzle is played on: the board
        // switches to it when the puzzle is opened, and the visitor should not wonder why.
        "ruleset_named": several,
        "href": format!("{root}{}#record={}", entry.url, fragment_value(id)),
        "image": image,
    })
}

/// The rows of the rules at a glance for some (entry, ruleset) pairs, with their facet values.
fn facts_rows(
    site: &Site,
    root: &str,
    rulesets: &[(usize, usize)],
) -> (Vec<serde_json::Value>, Vec<RowFacets>) {
    let archive = site.archive;
    let mut rows = Vec::new();
    let mut facets = Vec::new();
    for &(i, k) in rulesets {
        let entry = &archive.entries[i];
        let Some(rules) = entry.rules() else { continue };
        let r = &rules.rulesets[k];
        let Some(f) = &r.facts else { continue };
        let size = format!("{} {}", f.points, point_word(rules.family));
        let fam = rules.family.map(family_name).unwrap_or("").to_string();
        let kind = r.kind.map(|k| k.as_str().to_string());
        let row_facets = vec![
            (
                "family",
                vec![fam.clone()]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect(),
            ),
            ("mechanics", f.move_kinds.clone()),
            ("captures", f.capture_rules.clone()),
            ("ends", f.end_conditions.clone()),
            ("players", vec![f.players.to_string()]),
            ("size", vec![size.clone()]),
            ("type", kind.clone().into_iter().collect()),
        ];
        let mut row = json!({
            "game": site.item_link(root, i, None),
            "ruleset_href": format!("{root}{}#ruleset-{}", entry.url, anchor(&r.name)),
            "ruleset": r.title,
            "type": kind.unwrap_or_default(),
            "family": fam,
            "players": f.players,
            "size": size,
            "pieces": format!("{} / {}", f.pieces_per_side[0], f.pieces_per_side[1]),
            "moves": f.move_kinds,
            "captures": f.capture_rules,
            "ends": f.end_conditions,
            "sort_title": crate::archive::text::fold(&entry.title),
        });
        row["data"] = facet_data(&row_facets).into();
        rows.push(row);
        facets.push(row_facets);
    }
    (rows, facets)
}

/// Names records mention that the archive does not hold, by name. Paged by mention (a name and one record
/// naming it), so that a name mentioned by thousands of records continues on the next page instead of making
/// one page grow without bound.
fn uncatalogued(site: &Site, out: &Out) -> Result<(), String> {
    let sizes = Sizes::current();
    let mut names = site.archive.uncatalogued();
    names.sort_by_cached_key(|(name, _)| (crate::archive::text::fold(name), name.clone()));
    let mentions: Vec<(usize, usize)> = names
        .iter()
        .enumerate()
        .flat_map(|(n, (_, items))| items.iter().map(move |&i| (n, i)))
        .collect();
    // Keyed like the other lists, so that a rebuild neither makes nor holds the data of pages whose mentions
    // did not change, and made page by page: a large catalog's list runs to hundreds of pages.
    keyed_pages(
        site,
        out,
        ("uncatalogued", "mentions", "uncatalogued.html"),
        (b"", &site.keys),
        paginate::split(mentions, sizes.links),
        // A mention shows its name and the item's link; whether it is the name's first mention decides whether
        // a page that starts with it says the name continues from the page before.
        |&(n, i), out| {
            let first = names[n].1.first() == Some(&i);
            let _ = write!(out, "{}\u{1f}{}\u{1e}", names[n].0, u8::from(first));
        },
        |&(_, i)| i,
        |slot, template| {
            slot_job(
                site,
                slot,
                (
                    "Not yet catalogued",
                    "Games and boards that records name but the archive does not hold yet.",
                    "variants",
                ),
                template,
                |_, root, chunk, pager| {
                    let mut shown: Vec<serde_json::Value> = Vec::new();
                    let mut last: Option<usize> = None;
                    for (idx, &(n, i)) in chunk.iter().enumerate() {
                        if last != Some(n) {
                            // A name whose first mention is on an earlier page says it continues.
                            let continued = idx == 0 && names[n].1.first() != Some(&i);
                            shown.push(
                                json!({ "name": names[n].0, "continued": continued, "items": [] }),
                            );
                            last = Some(n);
                        }
                        let link = site.item_link(root, i, None);
                        if let Some(items) =
                            shown.last_mut().and_then(|v| v["items"].as_array_mut())
                        {
                            items.push(json!(link));
                        }
                    }
                    json!({ "names": shown, "pager": pager })
                },
            )
        },
    )
}

/// The pages of a list split into `chunks`: each page gets its layout, its navigation and its part of the list,
/// and `make` turns these into what the template is given (it may add to the layout).
///
/// Each page is made as the iterator is advanced, so that a list of many pages can be rendered page by page
/// without holding the data of them all.
#[allow(clippy::too_many_arguments)]
fn paged<'s, T: 's>(
    site: &'s Site,
    folder: &str,
    heading: &'s str,
    description: &'s str,
    section: &'static str,
    noun: &str,
    chunks: Vec<Vec<T>>,
    template: &'static str,
    mut make: impl FnMut(&mut Layout, &str, Vec<T>, Option<paginate::Pager>) -> serde_json::Value + 's,
) -> impl Iterator<Item = Job> + 's {
    paginate::slots(folder, noun, chunks)
        .into_iter()
        .map(move |slot| {
            slot_job(
                site,
                slot,
                (heading, description, section),
                template,
                &mut make,
            )
        })
}

/// One page of a list as [`paged`] makes it.
fn slot_job<T>(
    site: &Site,
    slot: paginate::Slot<T>,
    (heading, description, section): (&str, &str, &'static str),
    template: &'static str,
    make: impl FnOnce(&mut Layout, &str, Vec<T>, Option<paginate::Pager>) -> serde_json::Value,
) -> Job {
    let mut layout = site.layout(
        &slot.path,
        &page_title(heading, slot.number, slot.pages),
        description,
        section,
    );
    let page = make(&mut layout, &slot.root, slot.items, slot.pager);
    site.job(slot.path, template, layout, page)
}

/// A link made relative to the site root, moved to a page whose way back to the root is `root`.
fn rebase(mut link: Link, root: &str) -> Link {
    if !link.href.is_empty() && !link.href.starts_with('#') {
        link.href = format!("{root}{}", link.href);
    }
    link
}

/// The index page of a folder of pages (tags, places, people, sources): one link per page, each with a note
/// (how many items it lists, how often a work is cited), paged when there are many.
fn index_page<'a>(
    site: &Site,
    folder: &'static str,
    heading: &str,
    description: &str,
    pages: impl Iterator<Item = (&'a String, String, String)>,
) -> Vec<Job> {
    let links: Vec<Link> = pages
        .map(|(slug, text, note)| Link {
            href: format!("{folder}/{slug}/index.html"),
            text,
            note: Some(note),
            lang: None,
        })
        .collect();
    let chunks = paginate::split(links, Sizes::current().links);
    paged(
        site,
        folder,
        heading,
        description,
        folder,
        "entries",
        chunks,
        "list.html",
        |_, root, chunk, pager| {
            let links: Vec<Link> = chunk.into_iter().map(|l| rebase(l, root)).collect();
            json!({ "heading": heading, "links": links, "pager": pager })
        },
    )
    .collect()
}

fn facet_pages(
    site: &Site,
    out: &Out,
    folder: &'static str,
    title: &str,
    facets: &[Facet],
) -> Result<(), String> {
    let sizes = Sizes::current();
    // A place on the map links to its entry in the map's list, which is paged.
    let map_entries = if folder == "places" {
        atlas::entry_links(site)
    } else {
        Default::default()
    };
    let index = index_page(
        site,
        folder,
        title,
        &format!("{title} of the archive."),
        facets
            .iter()
            .map(|f| (&f.slug, f.name.clone(), f.items.len().to_string())),
    );
    index.into_par_iter().try_for_each(|job| out.page(job))?;
    // Each facet's pages are made and written in turn, on all cores: made all at once and then written, the
    // pages of every tag of a large catalog were held together (22 MB at 10,000 items). Keyed like the other
    // lists: a rebuild makes only the pages whose items, or whose facet, changed.
    facets.par_iter().try_for_each(|facet| {
        let atlas = facet.point.and(map_entries.get(&facet.slug));
        let shared = format!(
            "{title}\u{1f}{}\u{1f}{:?}\u{1f}{atlas:?}",
            facet.name, facet.point
        );
        let description = format!("Items of the archive under {}.", facet.name);
        keyed_pages(
            site,
            out,
            (&format!("{folder}/{}", facet.slug), "items", "facet.html"),
            (shared.as_bytes(), &site.own_keys),
            paginate::split(facet.items.clone(), sizes.links),
            // An item's link shows its title, address and kind, all of which its key covers.
            |_, _| {},
            |&i| i,
            |slot, template| {
                slot_job(
                    site,
                    slot,
                    (&facet.name, &description, folder),
                    template,
                    |layout, root, chunk, pager| {
                        facet_page(
                            site,
                            (folder, title),
                            facet,
                            atlas,
                            layout,
                            root,
                            chunk,
                            pager,
                        )
                    },
                )
            },
        )
    })
}

/// The data of one page of a tag's or a place's items.
#[allow(clippy::too_many_arguments)]
fn facet_page(
    site: &Site,
    (folder, title): (&str, &str),
    facet: &Facet,
    atlas: Option<&String>,
    layout: &mut Layout,
    root: &str,
    chunk: Vec<usize>,
    pager: Option<paginate::Pager>,
) -> serde_json::Value {
    let mut ld = json!({
        "@context": "https://schema.org",
        "@type": if folder == "places" { "Place" } else { "DefinedTerm" },
        "name": facet.name,
    });
    if let Some((east, north)) = facet.point {
        ld["geo"] = json!({ "@type": "GeoCoordinates", "latitude": north, "longitude": east });
    }
    layout.ld = Some(ld);
    layout.dc = vec![MetaTag {
        name: if folder == "places" {
            "DCTERMS.spatial"
        } else {
            "DC.subject"
        }
        .to_string(),
        content: facet.name.clone(),
        lang: None,
        scheme: None,
    }];
    if let Some((east, north)) = facet.point {
        layout.dc.push(MetaTag {
            name: "DCTERMS.spatial".into(),
            content: format!(
                "east={east}; north={north}; name={}",
                facet.name.replace(';', ",")
            ),
            lang: None,
            scheme: Some("DCTERMS.Point"),
        });
    }
    let items: Vec<Link> = chunk
        .into_iter()
        .map(|i| {
            site.item_link(
                root,
                i,
                Some(kind_label(site.archive.entries[i].kind).into()),
            )
        })
        .collect();
    json!({
        "kind": if folder == "tags" { "Tag" } else { "Place" },
        "name": facet.name,
        "point": facet.point.map(|(e, n)| values::coordinates(e, n)),
        "map": facet.point.map(|(e, n)| values::map_link(e, n, &facet.name)),
        "atlas": atlas.map(|l| format!("{root}{l}")),
        "items": items,
        "list_href": format!("{root}{folder}/index.html"),
        "list_title": title,
        "pager": pager,
    })
}

/// The people pages. Each person's pages are rendered as soon as they are made, in parallel: their lists
/// together link every item naming anyone, too much page data to hold at once in a large catalog.
fn people_pages(site: &Site, out: &Out) -> Result<(), String> {
    let archive = site.archive;
    let sizes = Sizes::current();
    let index = index_page(
        site,
        "people",
        "People",
        "People and bodies named by the archive.",
        archive.people.iter().map(|p| {
            let count = p.items.len() + p.works.len();
            (&p.slug, p.name.clone(), count.to_string())
        }),
    );
    index.into_par_iter().try_for_each(|job| out.page(job))?;
    let config = &archive.catalog.config;
    archive.people.par_iter().try_for_each(|person| {
        // Items naming the person, then works they wrote, as one list: (is a work, link).
        let mut links: Vec<(bool, Link)> = person
            .items
            .iter()
            .map(|&(i, term)| {
                let label = TERMS
                    .iter()
                    .find(|t| t.name == term)
                    .map_or(term.to_string(), |t| config.label(t).to_string());
                (false, site.item_link("", i, Some(label)))
            })
            .collect();
        links.extend(
            person
                .works
                .iter()
                .map(|key| (true, site.source_link("", key, None))),
        );
        let description = format!("{} in the archive.", person.name);
        let mut jobs = paged(
            site,
            &format!("people/{}", person.slug),
            &person.name,
            &description,
            "people",
            "entries",
            paginate::split(links, sizes.links),
            "person.html",
            |layout, root, chunk, pager| {
                layout.ld = Some(json!({
                    "@context": "https://schema.org",
                    "@type": if is_organization(site.archive, person) { "Organization" } else { "Person" },
                    "name": person.name,
                }));
                let (works, items): (Vec<_>, Vec<_>) = chunk.into_iter().partition(|(w, _)| *w);
                let items: Vec<Link> = items.into_iter().map(|(_, l)| rebase(l, root)).collect();
                let works: Vec<Link> = works.into_iter().map(|(_, l)| rebase(l, root)).collect();
                json!({
                    "name": person.name,
                    "items": items,
                    "works": works,
                    "list_href": format!("{root}people/index.html"),
                    "pager": pager,
                })
            },
        );
        jobs.try_for_each(|job| out.page(job))
    })
}

/// Every source's pages: a source cited by thousands of items has pages of their links. Keyed like the other
/// lists, by the items each page links to and how: a rebuild makes only the pages whose citations changed.
fn source_pages(
    site: &Site,
    out: &Out,
    emit: impl Fn(Vec<Job>) -> Result<(), String>,
) -> Result<(), String> {
    let archive = site.archive;
    let sizes = Sizes::current();
    emit(index_page(
        site,
        "sources",
        "Sources",
        "The works the archive cites.",
        archive.sources.iter().map(|s| {
            let note = format!("cited {} time(s)", s.citations.len());
            (&s.slug, cite::full(s.entry), note)
        }),
    ))?;
    // Each term's label, looked up once rather than at each of the catalog's citations.
    let labels: foldhash::HashMap<&str, &str> = TERMS
        .iter()
        .map(|t| (t.name, archive.catalog.config.label(t)))
        .collect();
    archive
        .sources
        .par_iter()
        .zip(&site.works)
        .try_for_each(|(source, work)| {
            one_source_pages(site, out, (source, work), &labels, sizes.links)
        })
}

/// The groups a source's page sorts its citing items into, in order.
const SOURCE_GROUPS: [&str; 4] = ["Games", "Rulesets", "Boards", "Evidence"];

/// An item citing a source, as its page lists it.
#[derive(Clone, Copy)]
struct Citing<'a> {
    /// Which of [`SOURCE_GROUPS`].
    group: usize,
    item: usize,
    /// For a ruleset's source: the ruleset's name (none when the item has no ruleset of that title) and
    /// title.
    ruleset: Option<(Option<&'a str>, &'a str)>,
    /// For the item's own citation: the term's label.
    label: Option<&'a str>,
    pages: Option<&'a str>,
}

impl Citing<'_> {
    /// The link, relative to the site's root.
    fn link(&self, site: &Site) -> Link {
        let pages = self.pages.map(cite::pages);
        match self.ruleset {
            Some((name, title)) => {
                let entry = &site.archive.entries[self.item];
                Link {
                    href: format!(
                        "{}#ruleset-{}",
                        entry.url,
                        name.map(anchor).unwrap_or_default()
                    ),
                    text: format!("{}: {title}", entry.title),
                    note: pages,
                    lang: None,
                }
            }
            None => {
                let label = self.label.unwrap_or_default();
                let note = match pages {
                    Some(pages) => format!("{label}, {pages}"),
                    None => label.to_string(),
                };
                site.item_link("", self.item, Some(note))
            }
        }
    }
}

/// The pages of one source, `per_page` citing links to a page.
fn one_source_pages(
    site: &Site,
    out: &Out,
    (source, work): (&crate::archive::Source, &Hash),
    labels: &foldhash::HashMap<&str, &str>,
    per_page: usize,
) -> Result<(), String> {
    let archive = site.archive;
    let entry = source.entry;
    let title = entry.get("title").unwrap_or(&entry.key.value).to_string();
    // Every citing item, grouped in the order of SOURCE_GROUPS. A link's text is made only for a page that is
    // rendered: a rebuild keys every page of every source (tens of thousands of citations in a large catalog)
    // and renders few of them.
    let mut groups: Vec<Vec<Citing>> = vec![Vec::new(); SOURCE_GROUPS.len()];
    // Two citations that give the same link (the same item, ruleset and note) show once.
    let mut seen: foldhash::HashSet<(usize, Option<&str>, Option<&str>, &str)> =
        foldhash::HashSet::default();
    for c in &source.citations {
        let e = &archive.entries[c.item];
        let citing = if c.term == "ruleset" {
            let name = e
                .rules()
                .iter()
                .flat_map(|r| &r.rulesets)
                .find(|r| Some(&*r.title) == c.ruleset)
                .map(|r| &*r.name);
            Citing {
                group: 1,
                item: c.item,
                ruleset: Some((name, c.ruleset.unwrap_or_default())),
                label: None,
                pages: c.pages,
            }
        } else {
            let group = match e.kind {
                Kind::Game => 0,
                Kind::Board => 2,
                Kind::Evidence => 3,
            };
            Citing {
                group,
                item: c.item,
                ruleset: None,
                label: Some(labels.get(c.term).copied().unwrap_or(c.term)),
                pages: c.pages,
            }
        };
        let ruleset = citing.ruleset.and_then(|(name, _)| name);
        if seen.insert((c.item, ruleset, citing.label, c.pages.unwrap_or("\u{0}"))) {
            groups[citing.group].push(citing);
        }
    }
    let links: Vec<Citing> = groups.into_iter().flatten().collect();
    let fields: Vec<serde_json::Value> = entry
        .fields
        .iter()
        .map(|f| json!({ "name": f.name, "value": f.value }))
        .collect();
    let url = entry
        .get("url")
        .filter(|u| markdown::is_safe_url(u))
        .map(str::to_string);
    // When the address was read, in words; a urldate that is not a date is shown as written.
    let accessed = entry.get("urldate").map(|d| {
        crate::scheme::date::parse_w3cdtf(d.trim())
            .map_or_else(|_| d.to_string(), |d| values::date_words(&d))
    });
    let full = cite::full(entry);
    keyed_pages(
        site,
        out,
        (
            &format!("sources/{}", source.slug),
            "citations",
            "source.html",
        ),
        // The work's own fields, as its hash holds them; a citing item's link shows only what the item itself
        // says.
        (&work[..], &site.own_keys),
        paginate::split(links, per_page),
        // A link is made from the citation as well as the item: which ruleset, which pages.
        |citing, out| {
            let (name, title) = citing.ruleset.unwrap_or_default();
            let _ = write!(
                out,
                "{}\u{1f}{}\u{1f}{title}\u{1f}{}\u{1f}{}\u{1e}",
                citing.group,
                name.unwrap_or("\u{0}"),
                citing.label.unwrap_or("\u{0}"),
                citing.pages.unwrap_or("\u{0}")
            );
        },
        |citing| citing.item,
        |slot, template| {
            slot_job(
                site,
                slot,
                (&title, &full, "sources"),
                template,
                |layout, root, chunk, pager| {
                    layout.ld = Some(source_json_ld(entry));
                    layout.dc = source_dc(entry);
                    let mut shown: Vec<(usize, Vec<Link>)> = Vec::new();
                    for citing in chunk {
                        let link = rebase(citing.link(site), root);
                        match shown.last_mut() {
                            Some((g, links)) if *g == citing.group => links.push(link),
                            _ => shown.push((citing.group, vec![link])),
                        }
                    }
                    json!({
                        "title": title,
                        "full": full,
                        "key": entry.key.value,
                        "kind": entry.kind,
                        "fields": fields,
                        "url": url,
                        "accessed": accessed,
                        "note": entry.get("note"),
                        "list_href": format!("{root}sources/index.html"),
                        "groups": shown.into_iter().map(|(g, l)| json!({ "name": SOURCE_GROUPS[g], "links": l })).collect::<Vec<_>>(),
                        "pager": pager,
                    })
                },
            )
        },
    )
}

/// Whether a name of the people pages is a body: the bibliography writes it as one (in double braces) in a work
/// it is credited with.
fn is_organization(archive: &Archive, person: &crate::archive::Person) -> bool {
    let folded = crate::archive::text::fold(&person.name);
    person
        .works
        .iter()
        .filter_map(|key| archive.source(key))
        .flat_map(|source| ["author", "editor"].map(|f| source.entry.field(f)))
        .flatten()
        .flat_map(|field| crate::catalog::bibtex::names(&field.raw))
        .any(|n| n.is_corporate() && crate::archive::text::fold(&n.family()) == folded)
}

/// schema.org for a bibliography entry: a book, an article or another work, with its authors and year.
fn source_json_ld(entry: &crate::catalog::bibtex::BibEntry) -> serde_json::Value {
    let kind = match entry.kind.as_str() {
        "book" | "inbook" | "incollection" => "Book",
        "article" => "ScholarlyArticle",
        "phdthesis" | "mastersthesis" => "Thesis",
        _ => "CreativeWork",
    };
    let mut ld = json!({
        "@context": "https://schema.org",
        "@type": kind,
        "name": entry.get("title").unwrap_or(&entry.key.value),
        "identifier": entry.key.value,
    });
    // A name in double braces (`{{Digital Ludeme Project}}`) is a body, not a person.
    let authors: Vec<serde_json::Value> = entry
        .field("author")
        .map(|f| crate::catalog::bibtex::names(&f.raw))
        .unwrap_or_default()
        .iter()
        .filter(|n| !n.is_others())
        .map(|n| {
            if n.is_corporate() {
                json!({ "@type": "Organization", "name": n.family() })
            } else {
                let given = n.given();
                let family = [n.particle(), n.family(), n.suffix()]
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ");
                let name = if given.is_empty() {
                    family
                } else {
                    format!("{given} {family}")
                };
                json!({ "@type": "Person", "name": name })
            }
        })
        .collect();
    if !authors.is_empty() {
        ld["author"] = json!(authors);
    }
    for (field, key) in [
        ("year", "datePublished"),
        ("publisher", "publisher"),
        ("journal", "isPartOf"),
    ] {
        if let Some(v) = entry.get(field) {
            ld[key] = json!(v);
        }
    }
    // The work's own address; `url` is the address of the page describing it, as on every page.
    if let Some(url) = entry.get("url").filter(|u| markdown::is_safe_url(u)) {
        ld["sameAs"] = json!(url);
    }
    ld
}

/// Dublin Core meta tags for a bibliography entry.
fn source_dc(entry: &crate::catalog::bibtex::BibEntry) -> Vec<MetaTag> {
    let mut tags = Vec::new();
    let mut push = |name: &str, content: String| {
        if !content.trim().is_empty() {
            // The year, the one field with a scheme (W3CDTF), when it is one.
            let scheme = (name == "DC.date"
                && crate::scheme::Scheme::W3cdtf
                    .validate(content.trim())
                    .is_ok())
            .then_some("DCTERMS.W3CDTF");
            tags.push(MetaTag {
                name: name.to_string(),
                content,
                lang: None,
                scheme,
            });
        }
    };
    push(
        "DC.title",
        entry.get("title").unwrap_or_default().to_string(),
    );
    for a in &entry.authors {
        push("DC.creator", crate::archive::text::reading_order(a));
    }
    push("DC.date", entry.get("year").unwrap_or_default().to_string());
    push(
        "DC.publisher",
        entry.get("publisher").unwrap_or_default().to_string(),
    );
    push("DCTERMS.bibliographicCitation", cite::full(entry));
    tags
}

/// An id fragment for a ruleset (`ruleset-ten`); the base rules get `ruleset-base`.
fn anchor(name: &str) -> String {
    if name.is_empty() {
        "base".to_string()
    } else {
        crate::archive::text::slug(name)
    }
}

/// A value for the board's address fragment, as the board reads it back (`decodeURIComponent`): letters,
/// digits and `-_.~` as they are, every other byte percent-encoded.
fn fragment_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn item_page<'a>(
    site: &Site<'a, '_>,
    entry: &Entry<'a>,
) -> Result<(Job, Vec<Download<'a>>), String> {
    let archive = site.archive;
    let config = &archive.catalog.config;
    let item = entry.item;
    let path = entry.url.clone();
    let root = root_of(&path);
    let description = item
        .values_of("description")
        .next()
        .map(|v| summary(&v.text, 200))
        .unwrap_or_default();
    let mut layout = site.layout(
        &path,
        &entry.title,
        &description,
        kind_folder_section(entry.kind),
    );
    (layout.dc, layout.dc_links) = meta::dc_meta(archive, entry, site.options.base_url.as_deref());
    layout.ld = Some(meta::json_ld(
        archive,
        entry,
        site.options.base_url.as_deref(),
    ));

    // Every value, grouped by term in the configured order, with the relations other records make about this
    // one shown under their inverse terms.
    let mut fields = Vec::new();
    for label in &config.labels {
        let term = label.term;
        let mut values = Vec::new();
        for v in item.values_of(term.name) {
            // The scheme stays in the markup for machines (`data-scheme`); people read the value in words.
            let shown = values::show(v);
            let mut value = FieldValue {
                lang: v.lang().map(|l| l.value.clone()),
                lang_name: v.lang().map(|l| values::language_name(&l.value)),
                scheme: v.scheme().map(|s| s.value.clone()),
                ..FieldValue::default()
            };
            match shown {
                Some(shown) => {
                    value.text = shown.text;
                    value.map = shown.map;
                    value.href = shown.href;
                }
                None => value.text = one_line(&v.text),
            }
            if term.is_markdown() {
                value.html = Some(markdown::to_html(&v.text, 2));
            }
            if let Some(key) = &v.cite() {
                value.link =
                    Some(site.source_link(&root, &key.value, v.pages().map(|p| p.value.as_str())));
            } else if let Some(r) = &v.ref_() {
                match archive.index_of(&r.value) {
                    Some(t) => {
                        let shown = Some(one_line(&v.text)).filter(|s| !s.is_empty());
                        let mut link = site.item_link(&root, t, None);
                        if let Some(shown) = shown
                            && shown != link.text
                        {
                            link.note = Some(format!("as “{shown}”"));
                        }
                        value.link = Some(link);
                    }
                    None => value.text = r.value.clone(),
                }
            } else if term.relation {
                value.uncatalogued = true;
            }
            values.push(value);
        }
        for r in entry.inverse.iter().filter(|r| r.term == term.name) {
            if let Target::Item(t, _) = r.target {
                values.push(FieldValue {
                    link: Some(site.item_link(&root, t, None)),
                    computed: true,
                    text: archive.entries[t].title.clone(),
                    ..FieldValue::default()
                });
            }
        }
        if !values.is_empty() {
            fields.push(Field {
                term: format!("dcterms:{}", term.name),
                name: term.name,
                label: label.label.to_string(),
                values,
            });
        }
    }

    // Variants both ways.
    let mut version_of = Vec::new();
    let mut versions = Vec::new();
    let mut related = Vec::new();
    let mut names = Vec::new();
    for r in entry.relations.iter().chain(&entry.inverse) {
        match (&r.target, r.term) {
            (Target::Item(t, _), "isVersionOf") => version_of.push(site.item_link(&root, *t, None)),
            (Target::Item(t, _), "hasVersion") => versions.push(site.item_link(&root, *t, None)),
            (Target::Item(t, _), term) => {
                let label = TERMS
                    .iter()
                    .find(|x| x.name == term)
                    .map_or(term.to_string(), |x| config.label(x).to_string());
                related.push(site.item_link(&root, *t, Some(label)))
            }
            (Target::Name(n), term) => names.push(json!({
                "name": n,
                "term": TERMS.iter().find(|x| x.name == term).map_or(term.to_string(), |x| config.label(x).to_string()),
            })),
        }
    }
    dedup_links(&mut version_of);
    dedup_links(&mut versions);
    dedup_links(&mut related);

    let files = item_files(entry);
    let mut downloads = vec![Link {
        href: "record.xml".into(),
        text: "record.xml".into(),
        note: Some("the Dublin Core record".into()),
        lang: None,
    }];
    if has_folder(entry) {
        let name = format!("{}.zip", item.id);
        let mut parts = Vec::new();
        if item.rules_file.is_some() {
            parts.push("rules.txt".to_string());
        }
        match entry.item.game_records.len() {
            0 => {}
            1 => parts.push("1 game record".to_string()),
            n => parts.push(format!("{n} game records")),
        }
        match entry.images.len() {
            0 => {}
            1 => parts.push("1 picture".to_string()),
            n => parts.push(format!("{n} pictures")),
        }
        downloads.push(Link {
            href: name.clone(),
            text: name,
            note: Some(format!(
                "the catalog folder: record.xml, {}",
                parts.join(", ")
            )),
            lang: None,
        });
    }

    // Rulesets, with their board diagrams.
    let mut rulesets = Vec::new();
    // The board slot shows the first ruleset's start position: the same picture file as its ruleset's diagram,
    // which the visitor's browser then holds once, rather than a copy of the drawing in every page.
    let mut first_image: Option<(Json, String)> = None;
    let mut rules_error = None;
    let mut rules_text = None;
    if let Some(rules) = entry.rules() {
        rules_error = rules.error.clone();
        rules_text = entry.rules_text(site.archive);
        // A ruleset that starts exactly like an earlier one refers to its diagram instead of repeating it.
        let mut drawn: Vec<(&crate::archive::Diagram, Link)> = Vec::new();
        for r in &rules.rulesets {
            let id = format!("ruleset-{}", anchor(&r.name));
            let same_as = r.diagram.as_ref().and_then(|d| {
                drawn
                    .iter()
                    .find(|(earlier, _)| *earlier == &**d)
                    .map(|(_, link)| link.clone())
            });
            let image = match (&r.diagram, &same_as) {
                (Some(d), None) => {
                    drawn.push((
                        &**d,
                        Link {
                            href: format!("#{id}"),
                            text: r.title.to_string(),
                            note: None,
                            lang: None,
                        },
                    ));
                    site.diagram_image(
                        &root,
                        d,
                        format!("{}, {}: the board at the start", entry.title, r.title),
                        board::describe(d, &rules.sides),
                    )
                }
                _ => None,
            };
            // The first ruleset with a diagram draws it (no earlier one can have the same).
            if first_image.is_none()
                && let Some(picture) = &image
            {
                first_image = Some((picture.clone(), r.name.to_string()));
            }
            let boards: Vec<Link> = entry
                .boards
                .iter()
                .filter(|(_, rs)| rs.as_deref().is_none_or(|n| n == &*r.name))
                .map(|(b, _)| site.item_link(&root, *b, None))
                .collect();
            rulesets.push(json!({
                "id": id,
                "name": r.name,
                "title": r.title,
                "type": r.kind.map(|k| k.as_str()),
                "source": r.source.as_ref().map(|s| site.source_link(&root, s, r.pages.as_deref())),
                "facts": r.facts.as_ref().map(|f| json!({
                    "players": f.players,
                    "size": format!("{} {}", f.points, point_word(rules.family)),
                    "pieces": f.pieces_per_side,
                    "moves": f.move_kinds,
                    "captures": f.capture_rules,
                    "ends": f.end_conditions,
                })),
                "image": image,
                "same_board_as": same_as,
                "boards": boards,
                "error": r.error,
            }));
        }
    }

    // A board shows the diagram of the ruleset it is played with.
    let mut played_with = Vec::new();
    let mut board_image = None;
    let mut board_ruleset = None;
    for (g, rs) in &entry.played_with {
        let game = &archive.entries[*g];
        let ruleset = game.rules().and_then(|rules| {
            rules
                .rulesets
                .iter()
                .find(|r| rs.as_deref().is_none_or(|n| n == &*r.name))
                .map(|r| (rules, r))
        });
        let note = ruleset.map(|(_, r)| format!("ruleset: {}", r.title));
        let mut link = site.item_link(&root, *g, note);
        if let Some((_, r)) = ruleset {
            link.href = format!("{}#ruleset-{}", link.href, anchor(&r.name));
        }
        played_with.push(link);
        if board_image.is_none()
            && let Some((rules, r)) = ruleset
            && let Some(d) = &r.diagram
            && let Some(picture) = site.diagram_image(
                &root,
                d,
                format!("{}: the {} board", entry.title, game.title),
                board::describe(d, &rules.sides),
            )
        {
            board_ruleset = Some(r.name.to_string());
            board_image = Some(picture);
        }
    }

    let mut game_records = Vec::new();
    for record in entry.game_records() {
        let mut note = Vec::new();
        if let Some(k) = record.kind {
            note.push(k.to_string());
        }
        if let Some(t) = record.title {
            note.push(t.to_string());
        }
        if let Some(r) = &record.ruleset {
            note.push(format!("ruleset {r}"));
        }
        note.push(match record.moves {
            1 => "1 move".to_string(),
            n => format!("{n} moves"),
        });
        game_records.push(json!({ "name": record.file_name, "note": note.join(", ") }));
    }

    // Cite this page.
    let cited = cite::ItemCitation::of(entry, site.options.base_url.as_deref());
    let citation = cited.page(&entry.title, &config.title);
    // Shown on the page to copy; not written as files of their own, which would add three files per item to
    // every build for text the page already holds.
    let cites = vec![
        json!({ "format": "BibTeX", "text": cite::bibtex(&citation) }),
        json!({ "format": "RIS", "text": cite::ris(&citation) }),
        json!({ "format": "CSL-JSON", "text": cite::csl_json(&citation) }),
    ];

    let sources: Vec<Link> = item
        .values
        .iter()
        .filter(|v| v.term.name == "source" || v.term.name == "bibliographicCitation")
        .map(|v| match v.cite() {
            Some(key) => site.source_link(&root, &key.value, v.pages().map(|p| p.value.as_str())),
            None => Link {
                href: String::new(),
                text: one_line(&v.text),
                note: None,
                lang: None,
            },
        })
        .collect();
    let references: Vec<Link> = item
        .values_of("references")
        .filter_map(|v| {
            v.cite()
                .map(|key| site.source_link(&root, &key.value, v.pages().map(|p| p.value.as_str())))
        })
        .collect();
    let evidence: Vec<Link> = entry
        .evidence
        .iter()
        .map(|&e| {
            let c = archive.entries[e].item.confidence_value();
            site.item_link(&root, e, c.map(|c| format!("confidence {c}%")))
        })
        .collect();
    let attests: Vec<Link> = entry
        .attests
        .iter()
        .map(|&g| site.item_link(&root, g, None))
        .collect();
    let people: Vec<Link> = entry
        .people
        .iter()
        .map(|&p| Link {
            href: format!("{root}people/{}/index.html", archive.people[p].slug),
            text: archive.people[p].name.clone(),
            note: None,
            lang: None,
        })
        .collect();
    let rights: Vec<String> = item
        .values
        .iter()
        .filter(|v| {
            matches!(
                v.term.name,
                "rights" | "license" | "accessRights" | "rightsHolder"
            )
        })
        .map(|v| one_line(&v.text))
        .collect();
    let alternatives: Vec<serde_json::Value> = item
        .values_of("alternative")
        .map(|v| {
            json!({
                "text": one_line(&v.text),
                "lang": v.lang().map(|l| l.value.clone()),
                "lang_name": v.lang().map(|l| values::language_name(&l.value)),
            })
        })
        .collect();

    let mut page = json!({
        "id": item.id,
        "kind": entry.kind.as_str(),
        "kind_label": kind_label(entry.kind),
        "title": entry.title,
        "confidence": item.confidence_value(),
        "rules_error": rules_error,
        "rules_text": rules_text.as_deref(),
        "family": entry.sums().and_then(|s| s.family).map(family_name),
        "widget_ruleset": first_image.as_ref().map(|(_, n)| n.clone()).or(board_ruleset),
        "version_of": version_of,
        "versions": versions,
        "related": related,
        "boards": entry.boards.iter().map(|(b, _)| site.item_link(&root, *b, None)).collect::<Vec<_>>(),
        "played_with": played_with,
        "evidence": evidence,
        "attests": attests,
        "sources": sources,
        "references": references,
        "tags": site.facet_links(&root, "tags", &archive.tags, &entry.tags),
        "places": site.facet_links(&root, "places", &archive.places, &entry.places),
        "people": people,
        "rights": rights,
        "downloads": downloads,
        "images": super::media::page_images(entry),
    });
    // The large parts are moved in: `json!` copies every value it is given.
    let widget_image = first_image.map(|(picture, _)| picture).or(board_image);
    for (key, value) in [
        ("alternatives", Json::Array(alternatives)),
        ("fields_html", fields::html(&fields).into()),
        (
            "fields",
            serde_json::to_value(&fields).map_err(|e| e.to_string())?,
        ),
        ("rulesets", Json::Array(rulesets)),
        ("widget_image", widget_image.into()),
        ("widget", super::widget::data(archive, entry).into()),
        ("uncatalogued", Json::Array(names)),
        ("cite", Json::Array(cites)),
        ("game_records", Json::Array(game_records)),
    ] {
        page[key] = value;
    }
    Ok((site.job(path, ITEM_TEMPLATE, layout, page), files))
}

/// Whether an item's catalog folder holds more than its record (rules, game records or pictures), and so is
/// offered as one archive.
fn has_folder(entry: &Entry) -> bool {
    entry.item.rules_file.is_some()
        || !entry.item.game_records.is_empty()
        || !entry.images.is_empty()
}

/// The files beside an item's page: the record, and when the item has more, the whole catalog folder as one
/// archive (record, rules, every game record, the pictures), so that an item costs a handful of files however
/// many records it has.
fn item_files<'a>(entry: &Entry<'a>) -> Vec<Download<'a>> {
    let item = entry.item;
    let mut files = vec![Download::Text(
        format!("{}record.xml", entry.dir),
        item.file,
    )];
    if has_folder(entry) {
        files.push(Download::Folder(
            format!("{}{}.zip", entry.dir, item.id),
            item,
        ));
    }
    files
}

fn kind_folder_section(kind: Kind) -> &'static str {
    match kind {
        Kind::Game | Kind::Board | Kind::Evidence => "browse",
    }
}

fn dedup_links(links: &mut Vec<Link>) {
    let mut seen = std::collections::HashSet::new();
    links.retain(|l| seen.insert(l.href.clone()));
}
