//! The Dublin Core vocabulary: the 15 elements of `dc:` and the 55 properties of `dcterms:`, with their default
//! labels (Omeka's "Dublin Core Extended", with four readings of the seed site), refinement parents, and which
//! of them may point at a catalogued item with `ref` or at a bibliography entry with `cite`.

pub const DC_NS: &str = "http://purl.org/dc/elements/1.1/";
pub const DCTERMS_NS: &str = "http://purl.org/dc/terms/";
pub const RECORD_NS: &str = "urn:ludotheca:record:1";
pub const XSI_NS: &str = "http://www.w3.org/2001/XMLSchema-instance";
pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// Which Dublin Core namespace a value's element came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Namespace {
    /// `http://purl.org/dc/elements/1.1/`
    Dc,
    /// `http://purl.org/dc/terms/`
    Dcterms,
}

impl Namespace {
    pub fn prefix(self) -> &'static str {
        match self {
            Namespace::Dc => "dc",
            Namespace::Dcterms => "dcterms",
        }
    }
}

/// One property of the vocabulary.
#[derive(Debug, PartialEq, Eq)]
pub struct Term {
    /// Local name, as in `dcterms:<name>`.
    pub name: &'static str,
    /// Default label shown on a page.
    pub label: &'static str,
    /// The term this one refines (its oai_dc parent when that is one of the 15), if any.
    pub refines: Option<&'static str>,
    /// Also one of the 15 elements of the `dc:` namespace.
    pub in_dc: bool,
    /// May point at a catalogued item with `ref` (the relation terms of record-format.md).
    pub relation: bool,
}

impl Term {
    /// May cite a bibliography entry with `cite` and `pages`.
    pub fn citable(&self) -> bool {
        matches!(self.name, "source" | "references" | "bibliographicCitation")
    }

    /// Its values are Markdown: the page renders them (made safe), and an import turns HTML into it.
    pub fn is_markdown(&self) -> bool {
        matches!(
            self.name,
            "description" | "instructionalMethod" | "abstract" | "tableOfContents"
        )
    }

    /// A date term: its values are dates, so a language tag on them means nothing.
    pub fn is_date(&self) -> bool {
        self.name == "date" || self.refines == Some("date")
    }

    /// An accrual term, which describes a collection rather than an item.
    pub fn is_accrual(&self) -> bool {
        self.name.starts_with("accrual")
    }
}

const fn term(
    name: &'static str,
    label: &'static str,
    refines: Option<&'static str>,
    in_dc: bool,
    relation: bool,
) -> Term {
    Term {
        name,
        label,
        refines,
        in_dc,
        relation,
    }
}

const E: bool = true; // one of the 15 `dc:` elements
const R: bool = true; // a relation that takes `ref`
const N: bool = false;

impl Term {
    /// This term's place in [`TERMS`], found from its address (every term a record or the configuration names
    /// is one of them): none for a term that is not there.
    pub fn index(&'static self) -> Option<usize> {
        let offset = (self as *const Term as usize).checked_sub(TERMS.as_ptr() as usize)?;
        let size = std::mem::size_of::<Term>();
        (offset % size == 0 && offset / size < TERMS.len()).then_some(offset / size)
    }
}

/// All 55 `dcterms:` properties (15 of which are also the `dc:` elements), in the default display order.
pub static TERMS: [Term; 55] = [
    term("title", "Title", None, E, N),
    term("alternative", "Alternative Title", Some("title"), N, N),
    term("creator", "Creator", Some("contributor"), E, N),
    term("subject", "Subject", None, E, N),
    term("description", "Description", None, E, N),
    term("abstract", "Abstract", Some("description"), N, N),
    term(
        "tableOfContents",
        "Table Of Contents",
        Some("description"),
        N,
        N,
    ),
    term("instructionalMethod", "Rules", None, N, N),
    term("publisher", "Publisher", None, E, N),
    term("contributor", "Contributor", None, E, N),
    term("date", "Date", None, E, N),
    term("created", "Date Created", Some("date"), N, N),
    term("valid", "Date Valid", Some("date"), N, N),
    term("available", "Date Available", Some("date"), N, N),
    term("issued", "Date Issued", Some("date"), N, N),
    term("modified", "Date Modified", Some("date"), N, N),
    term("dateAccepted", "Date Accepted", Some("date"), N, N),
    term("dateCopyrighted", "Date Copyrighted", Some("date"), N, N),
    term("dateSubmitted", "Date Submitted", Some("date"), N, N),
    term("type", "Type", None, E, N),
    term("format", "Format", None, E, N),
    term("extent", "Extent", Some("format"), N, N),
    term("medium", "Medium", Some("format"), N, N),
    term("identifier", "Identifier", None, E, N),
    term(
        "bibliographicCitation",
        "Bibliographic Citation",
        Some("identifier"),
        N,
        N,
    ),
    term("source", "Source", Some("relation"), E, N),
    term("language", "Language", None, E, N),
    term("relation", "Relation", None, E, R),
    term("isVersionOf", "Variants", Some("relation"), N, R),
    term("hasVersion", "Has Version", Some("relation"), N, R),
    term("isReplacedBy", "Is Replaced By", Some("relation"), N, R),
    term("replaces", "Replaces", Some("relation"), N, R),
    term("isRequiredBy", "Is Required By", Some("relation"), N, R),
    term("requires", "Requires", Some("relation"), N, R),
    term("isPartOf", "Is Part Of", Some("relation"), N, R),
    term("hasPart", "Has Part", Some("relation"), N, R),
    term("isReferencedBy", "Is Referenced By", Some("relation"), N, R),
    term("references", "References", Some("relation"), N, R),
    term("isFormatOf", "Is Format Of", Some("relation"), N, R),
    term("hasFormat", "Has Format", Some("relation"), N, R),
    term("conformsTo", "Tags", Some("relation"), N, N),
    term("coverage", "Coverage", None, E, N),
    term("spatial", "Spatial Coverage", Some("coverage"), N, N),
    term("temporal", "Temporal Coverage", Some("coverage"), N, N),
    term("rights", "Rights", None, E, N),
    term("accessRights", "Access Rights", Some("rights"), N, N),
    term("license", "License", Some("rights"), N, N),
    term("rightsHolder", "Rights Holder", None, N, N),
    term("provenance", "Provenance", None, N, N),
    term("audience", "Audience", None, N, N),
    term(
        "educationLevel",
        "Audience Education Level",
        Some("audience"),
        N,
        N,
    ),
    term("mediator", "Mediator", Some("audience"), N, N),
    term("accrualMethod", "Entered by", None, N, N),
    term("accrualPeriodicity", "Accrual Periodicity", None, N, N),
    term("accrualPolicy", "Accrual Policy", None, N, N),
];

/// The Omeka label of a term before the seed site's readings, for documentation and exports that want it.
pub fn omeka_label(term: &Term) -> &'static str {
    match term.name {
        "instructionalMethod" => "Instructional Method",
        "isVersionOf" => "Is Version Of",
        "conformsTo" => "Conforms To",
        "accrualMethod" => "Accrual Method",
        _ => term.label,
    }
}

/// Look a term up by namespace and local name: `dc:` knows only its 15 elements.
pub fn lookup(ns: Namespace, name: &str) -> Option<&'static Term> {
    TERMS
        .iter()
        .find(|t| t.name == name && (ns == Namespace::Dcterms || t.in_dc))
}

/// Look a term up by a prefixed name as written in `ludotheca.toml`: `dcterms:title` or `dc:title`.
pub fn lookup_prefixed(name: &str) -> Option<&'static Term> {
    let (prefix, local) = name.split_once(':')?;
    let ns = match prefix {
        "dc" => Namespace::Dc,
        "dcterms" => Namespace::Dcterms,
        _ => return None,
    };
    lookup(ns, local)
}

/// Names valid in a namespace, for "did you mean" suggestions.
pub fn names(ns: Namespace) -> impl Iterator<Item = &'static str> {
    TERMS
        .iter()
        .filter(move |t| ns == Namespace::Dcterms || t.in_dc)
        .map(|t| t.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifteen_elements_and_fifty_five_properties() {
        assert_eq!(TERMS.iter().filter(|t| t.in_dc).count(), 15);
        assert_eq!(names(Namespace::Dcterms).count(), 55);
        let mut seen = std::collections::HashSet::new();
        assert!(TERMS.iter().all(|t| seen.insert(t.name)));
    }

    #[test]
    fn each_term_knows_its_place_and_no_other_term_has_one() {
        for (n, term) in TERMS.iter().enumerate() {
            assert_eq!(term.index(), Some(n), "{}", term.name);
        }
        let copy: &'static Term = Box::leak(Box::new(Term { ..TERMS[3] }));
        assert_eq!(copy.index(), None);
    }

    #[test]
    fn refinement_parents_exist() {
        for t in &TERMS {
            if let Some(parent) = t.refines {
                assert!(lookup(Namespace::Dcterms, parent).is_some(), "{}", t.name);
            }
        }
    }

    #[test]
    fn dc_has_no_refinements() {
        assert!(lookup(Namespace::Dc, "title").is_some());
        assert!(lookup(Namespace::Dc, "alternative").is_none());
        assert_eq!(
            lookup_prefixed("dcterms:isVersionOf").unwrap().label,
            "Variants"
        );
        assert_eq!(
            omeka_label(lookup_prefixed("dcterms:conformsTo").unwrap()),
            "Conforms To"
        );
    }
}
