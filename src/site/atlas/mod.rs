//! Places on a map and dates on a timeline, both made at build time and both filtered in the page by browse's
//! script (`static/browse.js`) with browse's facets:
//!
//! - `map/index.html`: the places whose records give coordinates (a DCMI Point, or the middle of a DCMI Box),
//!   drawn over country outlines ([`map`]), the view fitted to them and the whole world below, with every
//!   place also in a list of links beside the picture;
//! - `timeline/index.html` (paged like the other long lists): every item whose dates can be read by their
//!   scheme, in order of their first year, each with a bar placing its years on the page's span
//!   ([`timeline`]).

mod map;
mod timeline;

use std::collections::{BTreeMap, HashMap};

use serde_json::json;

use super::{
    FACET_LABELS, FacetCounts, Job, Out, Site, entry_facets, facet_data, facet_groups, keyed_pages,
    kind_label, meta, paged, paginate, slot_job, values,
};
use crate::archive::Facet;
use crate::archive::text::{fold, one_line};
use crate::scheme::Scheme;
use crate::scheme::place;

/// The facets the map filters by. Not places (the map is of places, listed beside it) nor board sizes (many
/// values a game, which on a map of thousands of places made the page several times larger for a filter
/// nobody looks for on a map).
const MAP_FACETS: [&str; 5] = ["kind", "family", "mechanics", "players", "tag"];

/// The map's filters offer the commonest values of each facet, so that the form stays the same size whatever
/// the catalog; a rarer value still filters from the URL (`#tag=...`), as on browse.
const MAP_VALUES: usize = 40;

/// The folder of the map page, and of the timeline's pages.
const MAP: &str = "map";
const TIMELINE: &str = "timeline";

/// The middle and the limits (west, east, south, north) of every DCMI Box the records give, by the folded name
/// the place facet has (the box's `name`, as the archive names it).
fn boxes(site: &Site) -> HashMap<String, (f64, f64, map::Limits)> {
    let mut found = HashMap::new();
    for entry in &site.archive.entries {
        for value in entry
            .item
            .values
            .iter()
            .filter(|v| v.term.name == "spatial")
        {
            let scheme = value
                .scheme()
                .as_ref()
                .and_then(|s| Scheme::from_xsi_type(&s.value));
            if scheme != Some(Scheme::Box) {
                continue;
            }
            let Ok(b) = place::parse_box(&value.text) else {
                continue;
            };
            let name = b.name.clone().unwrap_or_else(|| {
                format!(
                    "{:.2}-{:.2} E, {:.2}-{:.2} N",
                    b.west, b.east, b.south, b.north
                )
            });
            let (east, north) = b.centre();
            found
                .entry(fold(&name))
                .or_insert((east, north, (b.west, b.east, b.south, b.north)));
        }
    }
    found
}

/// A place on the map: its facet, east, north, and a DCMI Box's limits.
type Mapped<'a> = (&'a Facet, f64, f64, Option<map::Limits>);

/// The places the map draws, in the order of the places index, each with where it is marked (a DCMI Point, or
/// the middle of a DCMI Box with its limits); and how many places have no coordinates.
fn mapped<'a>(site: &Site<'a, '_>) -> (Vec<Mapped<'a>>, usize) {
    let boxes = boxes(site);
    let mut found = Vec::new();
    let mut unmapped = 0;
    for facet in &site.archive.places {
        match facet.point {
            Some((east, north)) => found.push((facet, east, north, None)),
            None => match boxes.get(&fold(&facet.name)) {
                Some(&(east, north, area)) => found.push((facet, east, north, Some(area))),
                None => unmapped += 1,
            },
        }
    }
    (found, unmapped)
}

/// The entry of the `index`-th mapped place in the map's list, from the site root: the list is paged like the
/// other plain lists, so that the page beside the map does not grow with the places.
fn entry_link(index: usize, slug: &str) -> String {
    let number = index / paginate::Sizes::current().links + 1;
    format!("{}#place-{slug}", paginate::path(MAP, number))
}

/// Every mapped place's entry in the map's list, from the site root, by the place's slug (for its page's link).
pub(super) fn entry_links(site: &Site) -> HashMap<String, String> {
    mapped(site)
        .0
        .iter()
        .enumerate()
        .map(|(i, (facet, ..))| (facet.slug.clone(), entry_link(i, &facet.slug)))
        .collect()
}

/// The map pages: the map with the first page of its list of places, then the rest of the list; and the
/// pictures of the outlines the map draws over: (path, SVG).
pub(super) fn map_pages(site: &Site) -> (Vec<Job>, Vec<(String, String)>) {
    let archive = site.archive;
    let path = format!("{MAP}/index.html");
    let root = super::root_of(&path);
    let (mapped, unmapped) = mapped(site);
    let mut places: Vec<map::Place> = Vec::new();
    let mut list = Vec::new();
    let mut counts = FacetCounts::default();
    let mut seen = vec![false; archive.entries.len()];
    for (index, &(facet, east, north, area)) in mapped.iter().enumerate() {
        let mut facets: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
        for &i in &facet.items {
            let mut of_entry = entry_facets(archive, &archive.entries[i]);
            of_entry.retain(|(key, _)| MAP_FACETS.contains(key));
            for (key, values) in &of_entry {
                facets
                    .entry(key)
                    .or_default()
                    .extend(values.iter().cloned());
            }
            if !std::mem::replace(&mut seen[i], true) {
                counts.add(&of_entry);
            }
        }
        let facets: Vec<(&'static str, Vec<String>)> = facets
            .into_iter()
            .map(|(key, mut values)| {
                values.sort();
                values.dedup();
                (key, values)
            })
            .collect();
        // A marker for several places leads to the first one's entry: on this page, or on a page of the list.
        let entry = entry_link(index, &facet.slug);
        let anchor = match entry.strip_prefix(&path) {
            Some(here) => here.to_string(),
            None => format!("{root}{entry}"),
        };
        list.push((
            facet,
            match area {
                Some((w, e, s, n)) => format!(
                    "{} to {}",
                    values::coordinates(w, s),
                    values::coordinates(e, n)
                ),
                None => values::coordinates(east, north),
            },
            facets.clone(),
        ));
        places.push(map::Place {
            name: facet.name.clone(),
            slug: facet.slug.clone(),
            east,
            north,
            area,
            href: format!("{root}places/{}/index.html", facet.slug),
            anchor,
            items: facet.items.len(),
            facets,
        });
    }
    let corners: Vec<(f64, f64)> = places.iter().flat_map(map::Place::corners).collect();
    let view = map::View::fit(&corners);
    let world = view != map::View::WORLD && !places.is_empty();
    let mut cluster_places = cluster_table(&places, &view, world);
    let mut files = vec![(format!("{MAP}/land.svg"), map::outlines_svg(&view))];
    let mut maps = vec![json!({
        "svg": map::svg(&view, &places, "map-places", "Map of the archive's places", "land.svg"),
        "label": "",
    })];
    if world {
        files.push((
            format!("{MAP}/world.svg"),
            map::outlines_svg(&map::View::WORLD),
        ));
        maps.push(json!({
            "svg": map::svg(&map::View::WORLD, &places, "map-world", "The archive's places on a map of the world", "world.svg"),
            "label": "The whole world",
        }));
    }
    drop(places);
    let mut groups = counts.groups(&FACET_LABELS);
    for group in &mut groups {
        if let Some(values) = group["values"].as_array_mut() {
            values.truncate(MAP_VALUES);
        }
    }
    let total = list.len();
    let chunks = paginate::split(list, paginate::Sizes::current().links);
    let mut maps = Some(maps);
    let jobs = paged(
        site,
        MAP,
        "Map",
        "The archive's places on a map, with every place in a list beside it.",
        "map",
        "places",
        chunks,
        "map.html",
        |layout, root, chunk, pager| {
            layout.ld = Some(meta::collection_page(&layout.title));
            let list: Vec<serde_json::Value> = chunk
                .into_iter()
                .map(|(facet, place, facets)| {
                    json!({
                        "href": format!("{root}places/{}/index.html", facet.slug),
                        "id": format!("place-{}", facet.slug),
                        "name": facet.name,
                        "where": place,
                        "count": facet.items.len(),
                        "data": facet_data(&facets),
                    })
                })
                .collect();
            // The pictures are on the first page only; the later pages continue its list.
            let maps = maps.take();
            let clusters = if maps.is_some() {
                cluster_places.take()
            } else {
                None
            };
            json!({
                "heading": if maps.is_some() { "Places on a map" } else { "Places on the map, continued" },
                "groups": groups,
                "maps": maps.unwrap_or_default(),
                "places": list,
                "total": paginate::thousands(total),
                "pager": pager,
                "map_href": format!("{root}{MAP}/index.html"),
                "cluster_places": clusters,
                "place_href": format!("{root}places/*/index.html"),
                "unmapped": unmapped,
                "places_href": format!("{root}places/index.html"),
            })
        },
    );
    (jobs.collect(), files)
}

/// The places of the markers that stand for several, for the map page's script to list a marker's places when
/// it is opened: a JSON array by index in `places` (as the markers' `data-places` give them), each
/// `[name, slug, items]`, or 0 for a place no such marker holds (on neither map), so that the table holds each
/// place once whichever maps draw it. None when no marker stands for several places.
fn cluster_table(places: &[map::Place], view: &map::View, world: bool) -> Option<String> {
    let mut shared = vec![false; places.len()];
    let views = std::iter::once(view).chain(world.then_some(&map::View::WORLD));
    for view in views {
        for members in map::cells(view, places).values().filter(|m| m.len() > 1) {
            for &i in members {
                shared[i] = true;
            }
        }
    }
    if !shared.contains(&true) {
        return None;
    }
    let last = shared.iter().rposition(|&s| s).unwrap_or(0);
    let table: Vec<serde_json::Value> = places[..=last]
        .iter()
        .zip(&shared)
        .map(|(p, &s)| {
            if s {
                json!([p.name, p.slug, p.items])
            } else {
                json!(0)
            }
        })
        .collect();
    Some(meta::script_json(&json!(table)))
}

/// A year as a label of the timeline's scale: `1921`, `501 BCE`.
fn year_label(year: i64) -> String {
    if year <= 0 {
        format!("{} BCE", 1 - year)
    } else {
        year.to_string()
    }
}

/// Percent of the page's span, to a tenth, so that the same catalog writes the same bytes on every machine.
fn percent(part: f64, whole: f64) -> String {
    format!("{:.1}", (part / whole * 100.0).clamp(0.0, 100.0))
}

/// The timeline's pages.
pub(super) fn timeline_pages(site: &Site, out: &Out) -> Result<(), String> {
    let archive = site.archive;
    let mut dated: Vec<(timeline::Span, String, usize)> = archive
        .entries
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let (span, _) = timeline::of_item(e.item)?;
            Some((span, fold(&e.title), i))
        })
        .collect();
    dated.sort_by(|a, b| {
        (a.0.from, a.0.to, &a.1, &archive.entries[a.2].url).cmp(&(
            b.0.from,
            b.0.to,
            &b.1,
            &archive.entries[b.2].url,
        ))
    });
    let total = dated.len();
    let undated = archive.entries.len() - total;
    let chunks = paginate::split(dated, paginate::Sizes::current().links);
    // Keyed like the other lists: a row shows the item's dates, title and facets (tag names among them, which
    // its key holds); every page states how many items are dated and how many are not.
    let counts = format!("{total}/{undated}");
    keyed_pages(
        site,
        out,
        (TIMELINE, "items", "timeline.html"),
        (counts.as_bytes(), &site.keys),
        chunks,
        |_, _| {},
        |d| d.2,
        |slot, template| {
            slot_job(
                site,
                slot,
                (
                    "Timeline",
                    "Every dated item of the archive in order of date, with filters.",
                    "timeline",
                ),
                template,
                |layout, root, chunk, pager| {
                    timeline_page(site, (total, undated), layout, root, &chunk, pager)
                },
            )
        },
    )
}

/// The data of one page of the timeline: `chunk` of the `total` dated items, `undated` more not on it.
fn timeline_page(
    site: &Site,
    (total, undated): (usize, usize),
    layout: &mut super::Layout,
    root: &str,
    chunk: &[(timeline::Span, String, usize)],
    pager: Option<paginate::Pager>,
) -> serde_json::Value {
    let archive = site.archive;
    layout.ld = Some(meta::collection_page(&layout.title));
    let from = chunk.iter().map(|d| d.0.from).min().unwrap_or(0);
    let to = chunk.iter().map(|d| d.0.to).max().unwrap_or(0);
    let width = (to + 1 - from) as f64;
    let rows_facets: Vec<_> = chunk
        .iter()
        .map(|d| entry_facets(archive, &archive.entries[d.2]))
        .collect();
    let rows: Vec<serde_json::Value> = chunk
        .iter()
        .zip(&rows_facets)
        .map(|((span, _, i), facets)| {
            let e = &archive.entries[*i];
            let words: Vec<String> = timeline::of_item(e.item)
                .map(|(_, used)| used.into_iter().map(values::text).collect())
                .unwrap_or_default();
            json!({
                "href": format!("{root}{}", e.url),
                "title": e.title,
                "kind": kind_label(e.kind),
                "year": if span.from == span.to { year_label(span.from) } else { format!("{}–{}", year_label(span.from), year_label(span.to)) },
                "date": one_line(&words.join("; ")),
                "approximate": span.approximate,
                "left": percent((span.from - from) as f64, width),
                "width": percent(((span.to + 1 - span.from) as f64).max(width / 200.0), width),
                "data": facet_data(facets),
            })
        })
        .collect();
    json!({
        "heading": "Timeline",
        "total": total,
        "undated": undated,
        "from": year_label(from),
        "to": year_label(to),
        "groups": facet_groups(&rows_facets, &FACET_LABELS),
        "rows": rows,
        "pager": pager,
        "browse_href": format!("{root}browse/index.html"),
    })
}
