//! The variants graph: catalogued games as linked boxes, arranged in layers so that every game sits below what
//! it is a version of, with an arrow from each version to its original and a dashed line for a plain relation.
//!
//! The layout is deliberately simple (layers by longest chain, rows wrapped at a fixed width, order by the
//! parents' positions), which keeps any catalog readable without a graph-layout dependency.

use std::fmt::Write as _;

use super::theme::escape_html;

pub struct Node {
    pub title: String,
    /// The page, relative to the page the graph is on.
    pub href: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// `from` is a version of `to`.
    VersionOf(usize, usize),
    /// A plain relation.
    Related(usize, usize),
}

const BOX_W: f64 = 176.0;
const BOX_H: f64 = 40.0;
const GAP_X: f64 = 24.0;
const GAP_Y: f64 = 64.0;
const PER_ROW: usize = 5;
const MARGIN: f64 = 12.0;

pub fn svg(nodes: &[Node], edges: &[Edge]) -> String {
    let n = nodes.len();
    // Layer = length of the longest chain of "is a version of" above a node. Bounded passes keep a cycle
    // (which check allows: two records may call each other versions) from looping.
    let mut layer = vec![0usize; n];
    for _ in 0..n.min(64) {
        let mut changed = false;
        for edge in edges {
            if let Edge::VersionOf(child, parent) = *edge
                && child < n
                && parent < n
                && child != parent
                && layer[child] < layer[parent] + 1
                && layer[parent] < 64
            {
                layer[child] = layer[parent] + 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let layers = layer.iter().copied().max().map_or(0, |m| m + 1);
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut position = vec![(0.0f64, 0.0f64); n];
    let mut y = MARGIN;
    for l in 0..layers {
        let mut members: Vec<usize> = (0..n).filter(|&i| layer[i] == l).collect();
        // Place each node under the mean position of what it is a version of, then by title. The keys are
        // computed once per layer: a catalog of thousands of games makes sorting with a scan per comparison slow.
        let mut sums: std::collections::HashMap<usize, (f64, usize)> =
            std::collections::HashMap::new();
        for edge in edges {
            if let Edge::VersionOf(c, p) = *edge
                && c < n
                && p < n
                && layer[c] == l
            {
                let slot = sums.entry(c).or_insert((0.0, 0));
                slot.0 += position[p].0;
                slot.1 += 1;
            }
        }
        let key = |i: usize| -> f64 {
            match sums.get(&i) {
                Some(&(sum, count)) if count > 0 => sum / count as f64,
                _ => f64::MAX,
            }
        };
        members.sort_by(|&a, &b| {
            key(a)
                .total_cmp(&key(b))
                .then_with(|| nodes[a].title.cmp(&nodes[b].title))
        });
        for chunk in members.chunks(PER_ROW) {
            for (k, &i) in chunk.iter().enumerate() {
                position[i] = (MARGIN + k as f64 * (BOX_W + GAP_X), y);
            }
            rows.push(chunk.to_vec());
            y += BOX_H + GAP_Y;
        }
    }
    let widest = rows.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let width = 2.0 * MARGIN + widest as f64 * BOX_W + (widest - 1) as f64 * GAP_X;
    let height = (y - GAP_Y + MARGIN).max(BOX_H + 2.0 * MARGIN);

    let mut out = String::with_capacity(256 * n + 512);
    let _ = write!(
        out,
        "<svg class=\"variants-graph\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width:.0} {height:.0}\" \
         width=\"{width:.0}\" height=\"{height:.0}\" role=\"group\" aria-labelledby=\"graph-title\">\
         <title id=\"graph-title\">How the catalogued games relate: each arrow points from a version to the game \
         it is a version of</title>\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" \
         markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>"
    );
    out.push_str("<g class=\"edges\">");
    for edge in edges {
        let (a, b, class) = match *edge {
            Edge::VersionOf(c, p) => (c, p, "version"),
            Edge::Related(a, b) => (a, b, "related"),
        };
        if a >= n || b >= n || a == b {
            continue;
        }
        let (ax, ay) = position[a];
        let (bx, by) = position[b];
        let (x1, y1, x2, y2) = if ay > by {
            (ax + BOX_W / 2.0, ay, bx + BOX_W / 2.0, by + BOX_H)
        } else if ay < by {
            (ax + BOX_W / 2.0, ay + BOX_H, bx + BOX_W / 2.0, by)
        } else if ax < bx {
            (ax + BOX_W, ay + BOX_H / 2.0, bx, by + BOX_H / 2.0)
        } else {
            (ax, ay + BOX_H / 2.0, bx + BOX_W, by + BOX_H / 2.0)
        };
        let marker = if class == "version" {
            " marker-end=\"url(#arrow)\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<line class=\"{class}\" x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\"{marker}/>"
        );
    }
    out.push_str("</g><g class=\"nodes\">");
    for (i, node) in nodes.iter().enumerate() {
        let (x, y) = position[i];
        let shown = shorten(&node.title, 24);
        let _ = write!(
            out,
            "<a href=\"{}\"><title>{}</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"6\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></a>",
            escape_html(&node.href),
            escape_html(&node.title),
            x + BOX_W / 2.0,
            y + BOX_H / 2.0 + 5.0,
            escape_html(&shown)
        );
    }
    out.push_str("</g></svg>");
    out
}

/// Which of `n` nodes to draw when a graph may show at most `max`: all of them when they fit; otherwise only
/// nodes joined to another, whole connected groups at a time, the biggest groups first (ties by their first
/// node), skipping a group that no longer fits. A single group bigger than `max` is cut to its first `max`
/// nodes rather than drawing nothing. Positions come back in increasing order, so the choice depends only on
/// the nodes' order and the edges.
pub fn bounded(n: usize, edges: &[Edge], max: usize) -> Vec<usize> {
    if n <= max {
        return (0..n).collect();
    }
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for edge in edges {
        let (a, b) = match *edge {
            Edge::VersionOf(a, b) | Edge::Related(a, b) => (a, b),
        };
        if a < n && b < n {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            if ra != rb {
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> =
        std::collections::BTreeMap::new();
    for i in 0..n {
        let r = find(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let mut groups: Vec<Vec<usize>> = groups.into_values().filter(|g| g.len() > 1).collect();
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a[0].cmp(&b[0])));
    let mut chosen: Vec<usize> = Vec::new();
    for group in &groups {
        if chosen.len() + group.len() <= max {
            chosen.extend(group);
        }
    }
    if chosen.is_empty()
        && let Some(biggest) = groups.first()
    {
        chosen.extend(biggest.iter().take(max));
    }
    chosen.sort_unstable();
    chosen
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let cut: String = text.chars().take(max - 1).collect();
        format!("{}…", cut.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_sit_below_and_cycles_end() {
        let nodes: Vec<Node> = ["A", "B", "C"]
            .iter()
            .map(|t| Node {
                title: t.to_string(),
                href: format!("{t}/index.html"),
            })
            .collect();
        let svg = svg(
            &nodes,
            &[
                Edge::VersionOf(1, 0),
                Edge::VersionOf(2, 1),
                Edge::VersionOf(0, 2),
                Edge::Related(0, 1),
            ],
        );
        assert!(svg.contains("href=\"A/index.html\""));
        assert!(svg.contains("marker-end"));
    }

    #[test]
    fn a_bounded_graph_keeps_whole_groups() {
        let edges = [
            Edge::VersionOf(1, 0),
            Edge::Related(2, 1),
            Edge::VersionOf(4, 3),
            Edge::Related(6, 7),
        ];
        assert_eq!(bounded(3, &edges, 5), vec![0, 1, 2]);
        // Groups {0,1,2}, {3,4}, {6,7}; 5 and 8 stand alone and are left out.
        assert_eq!(bounded(9, &edges, 5), vec![0, 1, 2, 3, 4]);
        assert_eq!(bounded(9, &edges, 4), vec![0, 1, 2]);
        assert_eq!(bounded(9, &edges, 2), vec![3, 4]);
        assert_eq!(bounded(9, &edges, 1), vec![0]);
    }
}
