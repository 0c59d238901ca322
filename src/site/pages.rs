//! Every page of the site: what each template is given, and the rendering of all of them in parallel.
//!
//! Links are made here, relative to the page they are on (`../../tags/alquerque/index.html`), and always end in
//! `index.html`, because a link to a folder shows a directory listing when the site is opened from disk.

use std::cmp::Reverse;

use rayon::prelude::*;
use serde::Serialize;
use serde_json::json;
use tera::Context;

use super::cite::{self, PageCitation};
use super::meta::{self, MetaTag};
use super::progress::Progress;
use super::theme::Theme;
use super::{BuildOptions, Contents, SiteFile, board, data, graph, markdown, search};
use crate::archive::rules::{family_name, point_word};
use crate::archive::text::{one_line, summary};
use crate::archive::{Archive, Entry, Facet, Target};
use crate::catalog::Kind;
use crate::catalog::terms::TERMS;

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
    dc: Vec<MetaTag>,
    json_ld: String,
    nav: Vec<NavLink>,
}

#[derive(Clone, Debug, Serialize)]
struct NavLink {
    section: &'static str,
    href: &'static str,
    label: &'static str,
}

/// The main navigation: (section, page, label).
const NAV: [(&str, &str, &str); 8] = [
    ("browse", "browse/index.html", "Browse"),
    ("variants", "variants/index.html", "Variants"),
    ("rules", "rules/index.html", "Rules"),
    ("tags", "tags/index.html", "Tags"),
    ("places", "places/index.html", "Places"),
    ("people", "people/index.html", "People"),
    ("sources", "sources/index.html", "Sources"),
    ("about", "about/index.html", "About"),
];

struct Job {
    path: String,
    template: &'static str,
    context: Context,
}

/// A page at `path` (relative to the site root) sees the root at this prefix.
fn root_of(path: &str) -> String {
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
    accessed: (i64, u32, u32),
}

impl<'a, 'c> Site<'a, 'c> {
    fn layout(&self, path: &str, title: &str, description: &str, section: &'static str) -> Layout {
        let config = &self.archive.catalog.config;
        Layout {
            site_title: config.title.clone(),
            site_description: one_line(&config.description),
            root: root_of(path),
            title: title.to_string(),
            description: one_line(description),
            section,
            dc: Vec::new(),
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
        let mut context = Context::new();
        context.insert("layout", &layout);
        context.insert("page", &page);
        Job {
            path,
            template,
            context,
        }
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

/// Render every page and data file of the site.
pub fn render_site(
    archive: &Archive,
    theme: &Theme,
    options: &BuildOptions,
) -> Result<Vec<SiteFile>, String> {
    let site = Site {
        archive,
        options,
        accessed: cite::today(),
    };
    let mut jobs: Vec<Job> = vec![
        home(&site),
        browse(&site),
        search_page(&site),
        about(&site),
        variants(&site),
        rules_page(&site),
        uncatalogued(&site),
    ];
    jobs.extend(facet_pages(&site, "tags", "Tags", &archive.tags));
    jobs.extend(facet_pages(&site, "places", "Places", &archive.places));
    jobs.extend(people_pages(&site));
    jobs.extend(source_pages(&site));
    let mut extra: Vec<SiteFile> = Vec::new();
    for (i, entry) in archive.entries.iter().enumerate() {
        let (job, files) = item_page(&site, i, entry);
        jobs.push(job);
        extra.extend(files);
    }

    let progress = Progress::new(jobs.len(), options.progress);
    let pages: Vec<String> = jobs.iter().map(|j| j.path.clone()).collect();
    let mut files: Vec<SiteFile> = jobs
        .into_par_iter()
        .map(|job| {
            let html = theme
                .render(job.template, &job.context)
                .map_err(|e| format!("{} ({}): {e}", job.template, job.path))?;
            progress.tick();
            Ok(SiteFile {
                path: job.path,
                contents: Contents::Text(html),
            })
        })
        .collect::<Result<_, String>>()?;
    progress.finish();

    files.extend(extra);
    let base = options.base_url.as_deref();
    files.push(text("search-index.js", search::index_js(archive)));
    files.push(text("catalog.json", data::catalog_json(archive)));
    files.push(text("catalog.csv", data::catalog_csv(archive)));
    files.push(text("oai-pmh.xml", data::oai_pmh(archive, base)));
    files.push(text("sitemap.xml", data::sitemap(&pages, base)));
    for (name, bytes) in &theme.statics {
        files.push(SiteFile {
            path: format!("static/{name}"),
            contents: Contents::Bytes(bytes.clone()),
        });
    }
    Ok(files)
}

fn text(path: &str, contents: String) -> SiteFile {
    SiteFile {
        path: path.to_string(),
        contents: Contents::Text(contents),
    }
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
    layout.json_ld = meta::script_json(&json!({
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
            .filter_map(|e| e.rules.as_ref()?.family)
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
    let mut mechanics = Vec::new();
    let mut players = Vec::new();
    let mut size = Vec::new();
    let mut family = Vec::new();
    if let Some(rules) = &entry.rules {
        if let Some(f) = rules.family {
            family.push(family_name(f).to_string());
        }
        for r in &rules.rulesets {
            if let Some(facts) = &r.facts {
                mechanics.extend(facts.move_kinds.iter().cloned());
                players.push(facts.players.to_string());
                size.push(format!("{} {}", facts.points, point_word(rules.family)));
            }
        }
    }
    for v in [&mut mechanics, &mut players, &mut size] {
        v.sort();
        v.dedup();
    }
    vec![
        ("kind", vec![entry.kind.as_str().to_string()]),
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
fn facet_groups(
    rows: &[Vec<(&'static str, Vec<String>)>],
    labels: &[(&str, &str)],
) -> Vec<serde_json::Value> {
    labels
        .iter()
        .filter_map(|(key, label)| {
            let counts = count_by(
                rows.iter()
                    .flat_map(|r| r.iter().filter(|(k, _)| k == key).flat_map(|(_, v)| v.clone())),
            );
            if counts.is_empty() {
                return None;
            }
            let mut values: Vec<(String, usize)> = counts;
            values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            Some(json!({
                "key": key,
                "label": label,
                "values": values.iter().map(|(v, n)| json!({ "value": v, "count": n })).collect::<Vec<_>>(),
            }))
        })
        .collect()
}

/// Facet values as one data attribute: `|a|b|` (bars inside values become slashes).
fn facet_attr(values: &[String]) -> String {
    if values.is_empty() {
        return String::new();
    }
    let cleaned: Vec<String> = values.iter().map(|v| v.replace('|', "/")).collect();
    format!("|{}|", cleaned.join("|"))
}

fn browse(site: &Site) -> Job {
    let path = "browse/index.html".to_string();
    let archive = site.archive;
    let root = root_of(&path);
    let mut layout = site.layout(
        &path,
        "Browse the archive",
        "Every game, board and evidence item, with filters.",
        "browse",
    );
    layout.json_ld = meta::script_json(&json!({
        "@context": "https://schema.org",
        "@type": "CollectionPage",
        "name": "Browse the archive",
    }));
    let facets: Vec<Vec<(&'static str, Vec<String>)>> = archive
        .entries
        .iter()
        .map(|e| entry_facets(archive, e))
        .collect();
    let rows: Vec<serde_json::Value> = archive
        .entries
        .iter()
        .zip(&facets)
        .map(|(e, f)| {
            let region = e.places.first().map(|&p| archive.places[p].name.clone()).unwrap_or_default();
            json!({
                "href": format!("{root}{}", e.url),
                "title": e.title,
                "kind": kind_label(e.kind),
                "region": region,
                "date": e.date_label,
                "year": e.year.map(|y| y.to_string()).unwrap_or_default(),
                "sort_title": crate::archive::text::fold(&e.title),
                "sort_region": crate::archive::text::fold(&region),
                "facets": f.iter().map(|(k, v)| json!({ "key": k, "value": facet_attr(v) })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let page = json!({
        "groups": facet_groups(&facets, &FACET_LABELS),
        "rows": rows,
    });
    site.job(path, "browse.html", layout, page)
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

fn variants(site: &Site) -> Job {
    let path = "variants/index.html".to_string();
    let root = root_of(&path);
    let archive = site.archive;
    let layout = site.layout(
        &path,
        "Variants",
        "How the catalogued games relate to one another.",
        "variants",
    );
    let games: Vec<usize> = (0..archive.entries.len())
        .filter(|&i| archive.entries[i].kind == Kind::Game)
        .collect();
    let position = |i: usize| games.iter().position(|&g| g == i);
    let nodes: Vec<graph::Node> = games
        .iter()
        .map(|&i| graph::Node {
            title: archive.entries[i].title.clone(),
            href: format!("{root}{}", archive.entries[i].url),
        })
        .collect();
    let mut edges = Vec::new();
    let mut list = Vec::new();
    for (n, &i) in games.iter().enumerate() {
        let entry = &archive.entries[i];
        let mut of = Vec::new();
        let mut related = Vec::new();
        for r in &entry.relations {
            let Target::Item(t, _) = r.target else {
                continue;
            };
            let Some(m) = position(t) else { continue };
            let edge = match r.term {
                "isVersionOf" => graph::Edge::VersionOf(n, m),
                "hasVersion" => graph::Edge::VersionOf(m, n),
                _ => graph::Edge::Related(n, m),
            };
            if !edges.contains(&edge) {
                edges.push(edge);
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
        list.push(json!({
            "game": site.item_link(&root, i, None),
            "of": of,
            "related": related,
            "uncatalogued": names,
        }));
    }
    let page = json!({
        "svg": graph::svg(&nodes, &edges),
        "list": list,
    });
    site.job(path, "variants.html", layout, page)
}

fn facts_rows(site: &Site, root: &str) -> (Vec<serde_json::Value>, Vec<RowFacets>) {
    let archive = site.archive;
    let mut rows = Vec::new();
    let mut facets = Vec::new();
    for (i, entry) in archive.entries.iter().enumerate() {
        let Some(rules) = &entry.rules else { continue };
        for r in &rules.rulesets {
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
            rows.push(json!({
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
                "facets": row_facets.iter().map(|(k, v)| json!({ "key": k, "value": facet_attr(v) })).collect::<Vec<_>>(),
            }));
            facets.push(row_facets);
        }
    }
    (rows, facets)
}

fn rules_page(site: &Site) -> Job {
    let path = "rules/index.html".to_string();
    let root = root_of(&path);
    let layout = site.layout(
        &path,
        "Rules at a glance",
        "Facts derived from the executable rules of every ruleset.",
        "rules",
    );
    let (rows, facets) = facts_rows(site, &root);
    let labels = [
        ("family", "Game family"),
        ("mechanics", "Moves"),
        ("captures", "Captures"),
        ("ends", "How a game ends"),
        ("players", "Players"),
        ("size", "Board size"),
        ("type", "Ruleset type"),
    ];
    let page = json!({
        "groups": facet_groups(&facets, &labels),
        "rows": rows,
    });
    site.job(path, "rules.html", layout, page)
}

fn uncatalogued(site: &Site) -> Job {
    let path = "uncatalogued/index.html".to_string();
    let root = root_of(&path);
    let layout = site.layout(
        &path,
        "Not yet catalogued",
        "Games and boards that records name but the archive does not hold yet.",
        "variants",
    );
    let names: Vec<serde_json::Value> = site
        .archive
        .uncatalogued()
        .into_iter()
        .map(|(name, items)| {
            json!({
                "name": name,
                "items": items.iter().map(|&i| site.item_link(&root, i, None)).collect::<Vec<_>>(),
            })
        })
        .collect();
    site.job(path, "uncatalogued.html", layout, json!({ "names": names }))
}

/// The index page of a folder of pages (tags, places, people, sources): one link per page, each with a note
/// (how many items it lists, how often a work is cited).
fn index_page<'a>(
    site: &Site,
    folder: &'static str,
    heading: &str,
    description: &str,
    pages: impl Iterator<Item = (&'a String, String, String)>,
) -> Job {
    let path = format!("{folder}/index.html");
    let layout = site.layout(&path, heading, description, folder);
    let links: Vec<Link> = pages
        .map(|(slug, text, note)| Link {
            href: format!("{slug}/index.html"),
            text,
            note: Some(note),
            lang: None,
        })
        .collect();
    site.job(
        path,
        "list.html",
        layout,
        json!({ "heading": heading, "links": links }),
    )
}

fn facet_pages(site: &Site, folder: &'static str, title: &str, facets: &[Facet]) -> Vec<Job> {
    let mut jobs = vec![index_page(
        site,
        folder,
        title,
        &format!("{title} of the archive."),
        facets
            .iter()
            .map(|f| (&f.slug, f.name.clone(), f.items.len().to_string())),
    )];
    for facet in facets {
        let path = format!("{folder}/{}/index.html", facet.slug);
        let root = root_of(&path);
        let mut layout = site.layout(
            &path,
            &facet.name,
            &format!("Items of the archive under {}.", facet.name),
            folder,
        );
        let mut ld = json!({
            "@context": "https://schema.org",
            "@type": if folder == "places" { "Place" } else { "DefinedTerm" },
            "name": facet.name,
        });
        if let Some((east, north)) = facet.point {
            ld["geo"] = json!({ "@type": "GeoCoordinates", "latitude": north, "longitude": east });
        }
        layout.json_ld = meta::script_json(&ld);
        layout.dc = vec![MetaTag {
            name: if folder == "places" {
                "DCTERMS.spatial"
            } else {
                "DC.subject"
            }
            .to_string(),
            content: facet.name.clone(),
            lang: None,
        }];
        let items: Vec<Link> = facet
            .items
            .iter()
            .map(|&i| {
                site.item_link(
                    &root,
                    i,
                    Some(kind_label(site.archive.entries[i].kind).into()),
                )
            })
            .collect();
        let page = json!({
            "kind": if folder == "tags" { "Tag" } else { "Place" },
            "name": facet.name,
            "point": facet.point.map(|(e, n)| format!("{n:.2}° N, {e:.2}° E")),
            "items": items,
            "list_href": format!("{root}{folder}/index.html"),
            "list_title": title,
        });
        jobs.push(site.job(path, "facet.html", layout, page));
    }
    jobs
}

fn people_pages(site: &Site) -> Vec<Job> {
    let archive = site.archive;
    let mut jobs = vec![index_page(
        site,
        "people",
        "People",
        "People and bodies named by the archive.",
        archive.people.iter().map(|p| {
            let count = p.items.len() + p.works.len();
            (&p.slug, p.name.clone(), count.to_string())
        }),
    )];
    for person in &archive.people {
        let path = format!("people/{}/index.html", person.slug);
        let root = root_of(&path);
        let mut layout = site.layout(
            &path,
            &person.name,
            &format!("{} in the archive.", person.name),
            "people",
        );
        layout.json_ld = meta::script_json(&json!({
            "@context": "https://schema.org",
            "@type": "Person",
            "name": person.name,
        }));
        let config = &archive.catalog.config;
        let items: Vec<Link> = person
            .items
            .iter()
            .map(|&(i, term)| {
                let label = TERMS
                    .iter()
                    .find(|t| t.name == term)
                    .map_or(term.to_string(), |t| config.label(t).to_string());
                site.item_link(&root, i, Some(label))
            })
            .collect();
        let works: Vec<Link> = person
            .works
            .iter()
            .map(|key| site.source_link(&root, key, None))
            .collect();
        let page = json!({ "name": person.name, "items": items, "works": works });
        jobs.push(site.job(path, "person.html", layout, page));
    }
    jobs
}

fn source_pages(site: &Site) -> Vec<Job> {
    let archive = site.archive;
    let mut jobs = vec![index_page(
        site,
        "sources",
        "Sources",
        "The works the archive cites.",
        archive.sources.iter().map(|s| {
            let note = format!("cited {} time(s)", s.citations.len());
            (&s.slug, cite::full(s.entry), note)
        }),
    )];
    for source in &archive.sources {
        let path = format!("sources/{}/index.html", source.slug);
        let root = root_of(&path);
        let entry = source.entry;
        let title = entry.get("title").unwrap_or(&entry.key.value).to_string();
        let mut layout = site.layout(&path, &title, &cite::full(entry), "sources");
        layout.json_ld = meta::script_json(&source_json_ld(entry));
        layout.dc = source_dc(entry);
        let mut groups: Vec<(&str, Vec<Link>)> = vec![
            ("Games", Vec::new()),
            ("Rulesets", Vec::new()),
            ("Boards", Vec::new()),
            ("Evidence", Vec::new()),
        ];
        let mut seen = std::collections::HashSet::new();
        for c in &source.citations {
            let e = &archive.entries[c.item];
            let (group, link) = if c.term == "ruleset" {
                let name = e
                    .rules
                    .iter()
                    .flat_map(|r| &r.rulesets)
                    .find(|r| Some(&r.title) == c.ruleset.as_ref())
                    .map(|r| anchor(&r.name))
                    .unwrap_or_default();
                let note = c.pages.as_deref().map(cite::pages);
                (
                    1,
                    Link {
                        href: format!("{root}{}#ruleset-{name}", e.url),
                        text: format!("{}: {}", e.title, c.ruleset.clone().unwrap_or_default()),
                        note,
                        lang: None,
                    },
                )
            } else {
                let label = TERMS
                    .iter()
                    .find(|t| t.name == c.term)
                    .map_or(c.term.to_string(), |t| {
                        archive.catalog.config.label(t).to_string()
                    });
                let note = match &c.pages {
                    Some(p) => format!("{label}, {}", cite::pages(p)),
                    None => label,
                };
                let group = match e.kind {
                    Kind::Game => 0,
                    Kind::Board => 2,
                    Kind::Evidence => 3,
                };
                (group, site.item_link(&root, c.item, Some(note)))
            };
            if seen.insert((link.href.clone(), link.note.clone())) {
                groups[group].1.push(link);
            }
        }
        let fields: Vec<serde_json::Value> = entry
            .fields
            .iter()
            .map(|f| json!({ "name": f.name, "value": f.value }))
            .collect();
        let url = entry
            .get("url")
            .filter(|u| markdown::is_safe_url(u))
            .map(str::to_string);
        let page = json!({
            "title": title,
            "full": cite::full(entry),
            "key": entry.key.value,
            "kind": entry.kind,
            "fields": fields,
            "url": url,
            "groups": groups.into_iter().filter(|(_, l)| !l.is_empty()).map(|(n, l)| json!({ "name": n, "links": l })).collect::<Vec<_>>(),
        });
        jobs.push(site.job(path, "source.html", layout, page));
    }
    jobs
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
    let authors: Vec<serde_json::Value> = entry
        .authors
        .iter()
        .map(|a| json!({ "@type": "Person", "name": crate::archive::text::reading_order(a) }))
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
    if let Some(url) = entry.get("url").filter(|u| markdown::is_safe_url(u)) {
        ld["url"] = json!(url);
    }
    ld
}

/// Dublin Core meta tags for a bibliography entry.
fn source_dc(entry: &crate::catalog::bibtex::BibEntry) -> Vec<MetaTag> {
    let mut tags = Vec::new();
    let mut push = |name: &str, content: String| {
        if !content.trim().is_empty() {
            tags.push(MetaTag {
                name: name.to_string(),
                content,
                lang: None,
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

/// Terms whose values are Markdown.
fn is_markdown(term: &str) -> bool {
    matches!(
        term,
        "description" | "instructionalMethod" | "abstract" | "tableOfContents"
    )
}

fn item_page(site: &Site, index: usize, entry: &Entry) -> (Job, Vec<SiteFile>) {
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
    layout.dc = meta::dc_meta(archive, entry);
    layout.json_ld = meta::script_json(&meta::json_ld(
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
            let mut value = json!({
                "text": one_line(&v.text),
                "lang": v.lang.as_ref().map(|l| l.value.clone()),
                "scheme": v.scheme.as_ref().map(|s| s.value.clone()),
            });
            if is_markdown(term.name) {
                value["html"] = json!(markdown::to_html(&v.text, 2));
            }
            if let Some(key) = &v.cite {
                let link = site.source_link(
                    &root,
                    &key.value,
                    v.pages.as_ref().map(|p| p.value.as_str()),
                );
                value["link"] = json!(link);
            } else if let Some(r) = &v.ref_ {
                match archive.index_of(&r.value) {
                    Some(t) => {
                        let shown = Some(one_line(&v.text)).filter(|s| !s.is_empty());
                        let mut link = site.item_link(&root, t, None);
                        if let Some(shown) = shown
                            && shown != link.text
                        {
                            link.note = Some(format!("as “{shown}”"));
                        }
                        value["link"] = json!(link);
                    }
                    None => value["text"] = json!(r.value),
                }
            } else if term.relation {
                value["uncatalogued"] = json!(true);
            }
            values.push(value);
        }
        for r in entry.inverse.iter().filter(|r| r.term == term.name) {
            if let Target::Item(t, _) = r.target {
                values.push(json!({
                    "link": site.item_link(&root, t, None),
                    "computed": true,
                    "text": archive.entries[t].title,
                }));
            }
        }
        if !values.is_empty() {
            fields.push(json!({
                "term": format!("dcterms:{}", term.name),
                "name": term.name,
                "label": label.label,
                "values": values,
            }));
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

    let mut files = Vec::new();
    files.push(SiteFile {
        path: format!("{}record.xml", entry.dir),
        // Published from the text read at load (never read again from disk, which may have changed since check).
        contents: Contents::Text(archive.catalog.files.get(item.file).text.clone()),
    });
    let mut downloads = vec![Link {
        href: "record.xml".into(),
        text: "record.xml".into(),
        note: Some("the Dublin Core record".into()),
        lang: None,
    }];

    // Rulesets, with their board diagrams.
    let mut rulesets = Vec::new();
    // The board slot shows the first ruleset's start position, drawn again with ids of its own.
    let mut first_svg: Option<(String, String)> = None;
    let mut rules_error = None;
    let mut rules_text = None;
    if let Some(rules) = &entry.rules {
        files.push(SiteFile {
            path: format!("{}rules.txt", entry.dir),
            contents: Contents::Text(rules.text.clone()),
        });
        downloads.push(Link {
            href: "rules.txt".into(),
            text: "rules.txt".into(),
            note: Some("the executable rules".into()),
            lang: None,
        });
        rules_error = rules.error.clone();
        rules_text = Some(rules.text.clone());
        // A ruleset that starts exactly like an earlier one refers to its diagram instead of repeating it.
        let mut drawn: Vec<(&crate::archive::Diagram, Link)> = Vec::new();
        for r in &rules.rulesets {
            let id = format!("ruleset-{}", anchor(&r.name));
            let same_as = r.diagram.as_ref().and_then(|d| {
                drawn
                    .iter()
                    .find(|(earlier, _)| *earlier == d)
                    .map(|(_, link)| link.clone())
            });
            let svg = match (&r.diagram, &same_as) {
                (Some(d), None) => {
                    drawn.push((
                        d,
                        Link {
                            href: format!("#{id}"),
                            text: r.title.clone(),
                            note: None,
                            lang: None,
                        },
                    ));
                    Some(board::svg(
                        d,
                        &format!("board-{}", anchor(&r.name)),
                        &format!("{}, {}: the board at the start", entry.title, r.title),
                        &rules.sides,
                    ))
                }
                _ => None,
            };
            if first_svg.is_none()
                && let Some(d) = &r.diagram
            {
                let svg = board::svg(
                    d,
                    "board-start",
                    &format!("{}, {}: the board at the start", entry.title, r.title),
                    &rules.sides,
                );
                first_svg = Some((svg, r.name.clone()));
            }
            let boards: Vec<Link> = entry
                .boards
                .iter()
                .filter(|(_, rs)| rs.as_deref().is_none_or(|n| n == r.name))
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
                "svg": svg,
                "same_board_as": same_as,
                "boards": boards,
                "error": r.error,
            }));
        }
    }

    // A board shows the diagram of the ruleset it is played with.
    let mut played_with = Vec::new();
    let mut board_svg = None;
    let mut board_ruleset = None;
    for (g, rs) in &entry.played_with {
        let game = &archive.entries[*g];
        let ruleset = game.rules.as_ref().and_then(|rules| {
            rules
                .rulesets
                .iter()
                .find(|r| rs.as_deref().is_none_or(|n| n == r.name))
                .map(|r| (rules, r))
        });
        let note = ruleset.map(|(_, r)| format!("ruleset: {}", r.title));
        let mut link = site.item_link(&root, *g, note);
        if let Some((_, r)) = ruleset {
            link.href = format!("{}#ruleset-{}", link.href, anchor(&r.name));
        }
        played_with.push(link);
        if board_svg.is_none()
            && let Some((rules, r)) = ruleset
            && let Some(d) = &r.diagram
        {
            board_ruleset = Some(r.name.clone());
            board_svg = Some(board::svg(
                d,
                "board-played",
                &format!("{}: the {} board", entry.title, game.title),
                &rules.sides,
            ));
        }
    }

    for record in &entry.game_records {
        files.push(SiteFile {
            path: format!("{}games/{}", entry.dir, record.file_name),
            contents: Contents::Text(archive.catalog.files.get(record.source).text.clone()),
        });
        let mut note = Vec::new();
        if let Some(k) = &record.kind {
            note.push(k.clone());
        }
        if let Some(t) = &record.title {
            note.push(t.clone());
        }
        if let Some(r) = &record.ruleset {
            note.push(format!("ruleset {r}"));
        }
        note.push(format!("{} moves", record.moves));
        downloads.push(Link {
            href: format!("games/{}", record.file_name),
            text: record.file_name.clone(),
            note: Some(note.join(", ")),
            lang: None,
        });
    }

    // Cite this page.
    let authors: Vec<String> = item
        .values_of("contributor")
        .map(|v| one_line(&v.text))
        .collect();
    let citation = PageCitation {
        key: &format!("ludotheca-{}", item.id),
        title: &entry.title,
        authors: &authors,
        site_title: &config.title,
        url: site
            .options
            .base_url
            .as_ref()
            .map(|b| format!("{b}{}", entry.url)),
        accessed: site.accessed,
    };
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
        .map(|v| match &v.cite {
            Some(key) => site.source_link(
                &root,
                &key.value,
                v.pages.as_ref().map(|p| p.value.as_str()),
            ),
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
            v.cite.as_ref().map(|key| {
                site.source_link(
                    &root,
                    &key.value,
                    v.pages.as_ref().map(|p| p.value.as_str()),
                )
            })
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
        .map(|v| json!({ "text": one_line(&v.text), "lang": v.lang.as_ref().map(|l| l.value.clone()) }))
        .collect();

    let page = json!({
        "index": index,
        "id": item.id,
        "kind": entry.kind.as_str(),
        "kind_label": kind_label(entry.kind),
        "title": entry.title,
        "alternatives": alternatives,
        "fields": fields,
        "confidence": item.confidence_value(),
        "rulesets": rulesets,
        "rules_error": rules_error,
        "rules_text": rules_text,
        "family": entry.rules.as_ref().and_then(|r| r.family).map(family_name),
        "widget_svg": first_svg.as_ref().map(|(s, _)| s.clone()).or(board_svg.clone()),
        "widget_ruleset": first_svg.as_ref().map(|(_, n)| n.clone()).or(board_ruleset),
        "widget": super::widget::data(archive, entry),
        "board_svg": board_svg,
        "version_of": version_of,
        "versions": versions,
        "related": related,
        "uncatalogued": names,
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
        "cite": cites,
        "downloads": downloads,
    });
    (site.job(path, "item.html", layout, page), files)
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
