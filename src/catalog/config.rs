//! `ludotheca.toml`: the site's title and description, and the labels of terms in display order.

use serde::Deserialize;

use super::terms::{self, TERMS, Term};
use crate::diagnostic::Diagnostics;
use crate::source::{FileId, SourceMap};
use crate::suggest;

/// The address a site is published at, from the configuration's `base_url` or `build --base-url`: an
/// absolute http or https address, returned ending in `/` since page addresses are appended to it. Any other
/// scheme (`javascript:`, `data:`, `file:`) would end up in every page's links and citations.
pub fn site_address(text: &str) -> Result<String, String> {
    let text = text.trim();
    let lower = text.to_ascii_lowercase();
    let host = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
        .and_then(|rest| rest.split(['/', '?', '#']).next())
        .unwrap_or("");
    if host.is_empty() {
        return Err(format!("`{text}` is not an http or https address"));
    }
    crate::scheme::uri::parse_uri(text)?;
    Ok(if text.ends_with('/') {
        text.to_string()
    } else {
        format!("{text}/")
    })
}

/// Whether `text` is a repository identifier as the OAI identifier syntax (and its schema's pattern) allows: a
/// domain name of at least two labels, each starting with a letter and holding letters, digits and hyphens, every
/// label after the first at least two characters long.
pub fn is_repository_identifier(text: &str) -> bool {
    let labels: Vec<&str> = text.split('.').collect();
    labels.len() >= 2
        && labels.iter().enumerate().all(|(i, label)| {
            label.len() >= if i == 0 { 1 } else { 2 }
                && label.starts_with(|c: char| c.is_ascii_alphabetic())
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

/// The repository identifier of the OAI identifiers: the configured one, else the host of the site's address
/// when it is a domain name the syntax allows. Without either, `ludotheca.invalid`, a name under the top-level
/// domain reserved for names that can never resolve, so that the identifiers keep their syntax without claiming
/// anyone's domain (the build warns that the site has no address: W007).
pub fn repository_identifier(config: &Config, base_url: Option<&str>) -> String {
    if let Some(configured) = &config.oai_repository_identifier {
        return configured.clone();
    }
    base_url
        .and_then(|url| url.split_once("://"))
        .and_then(|(_, rest)| rest.split(['/', '?', '#']).next())
        // No user information or port in a domain name.
        .map(|host| host.rsplit('@').next().unwrap_or(host))
        .map(|host| host.split(':').next().unwrap_or(host).to_ascii_lowercase())
        .filter(|host| is_repository_identifier(host))
        .unwrap_or_else(|| "ludotheca.invalid".to_string())
}

/// A term and the label a page shows for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub term: &'static Term,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub title: String,
    pub description: String,
    /// Every one of the 55 terms, in display order: those listed in the file first, then the rest in the
    /// default order with their default labels.
    pub labels: Vec<Label>,
    /// Where the site will be published (`https://example.org/games/`, ending in `/`), for the sitemap, the
    /// OAI-PMH file and citations; `build --base-url` overrides it.
    pub base_url: Option<String>,
    /// An address for the archive's editors, given as the OAI-PMH repository's `adminEmail`.
    pub contact: Option<String>,
    /// The static repository gateway that answers OAI-PMH requests for `oai-pmh.xml` (ending in `/`): the
    /// file's `baseURL` is this address followed by the file's own address without its scheme.
    pub oai_gateway: Option<String>,
    /// The domain name in the records' OAI identifiers (`oai:<this>:<id>`); the base URL's host otherwise.
    pub oai_repository_identifier: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            title: String::new(),
            description: String::new(),
            base_url: None,
            contact: None,
            oai_gateway: None,
            oai_repository_identifier: None,
            labels: TERMS
                .iter()
                .map(|term| Label {
                    term,
                    label: term.label.to_string(),
                })
                .collect(),
        }
    }
}

impl Config {
    /// The label shown for a term.
    pub fn label(&self, term: &Term) -> &str {
        self.labels
            .iter()
            .find(|l| l.term.name == term.name)
            .map_or(term.label, |l| l.label.as_str())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    title: Option<toml::Spanned<String>>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    labels: Vec<RawLabel>,
    base_url: Option<toml::Spanned<String>>,
    contact: Option<toml::Spanned<String>>,
    oai_gateway: Option<toml::Spanned<String>>,
    oai_repository_identifier: Option<toml::Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLabel {
    term: toml::Spanned<String>,
    label: toml::Spanned<String>,
}

/// Parse `ludotheca.toml`, reporting problems as E034 and falling back to defaults for what is wrong.
pub fn parse(sources: &SourceMap, file: FileId, diagnostics: &mut Diagnostics) -> Config {
    let text = &sources.get(file).text();
    let raw: RawConfig = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(err) => {
            let span = err.span().unwrap_or(0..0);
            diagnostics.error_at(
                sources,
                file,
                span,
                "E034",
                format!("invalid site configuration: {}", err.message().trim_end()),
            );
            return Config::default();
        }
    };
    let mut config = Config::default();
    match raw.title {
        Some(title) if !title.get_ref().trim().is_empty() => config.title = title.into_inner(),
        Some(title) => {
            diagnostics
                .error_at(
                    sources,
                    file,
                    title.span(),
                    "E034",
                    "the site title is empty",
                )
                .help = Some("give the archive a title: `title = \"...\"`".into());
        }
        None => {
            diagnostics
                .error_at(
                    sources,
                    file,
                    0..0,
                    "E034",
                    "the site configuration has no `title`",
                )
                .help = Some("add `title = \"...\"` at the top of ludotheca.toml".into());
        }
    }
    config.description = raw.description;
    let mut key = |value: Option<toml::Spanned<String>>,
                   read: &dyn Fn(&str) -> Result<String, String>,
                   help: &str| {
        let value = value?;
        let text = value.get_ref().trim();
        match read(text) {
            Ok(read) => Some(read),
            Err(message) => {
                diagnostics
                    .error_at(sources, file, value.span(), "E034", message)
                    .help = Some(help.to_string());
                None
            }
        }
    };
    let address = |text: &str| {
        site_address(text).map_err(|_| format!("`{text}` is not an http or https address"))
    };
    config.base_url = key(
        raw.base_url,
        &address,
        "give the address the site will be published at, e.g. `base_url = \"https://example.org/games/\"`",
    );
    config.contact = key(
        raw.contact,
        &|text| {
            // A plain check: one `@` with something on both sides and no spaces; mail servers decide the rest.
            let plausible = text.split_once('@').is_some_and(|(user, host)| {
                !user.is_empty() && host.contains('.') && !host.contains('@')
            }) && !text.contains(char::is_whitespace);
            if plausible {
                Ok(text.to_string())
            } else {
                Err(format!("`{text}` is not an e-mail address"))
            }
        },
        "write the editors' address, e.g. `contact = \"editors@example.org\"`",
    );
    config.oai_gateway = key(
        raw.oai_gateway,
        &address,
        "give the address of a static repository gateway, e.g. `oai_gateway = \"https://gateway.example.org/oai/\"`",
    );
    config.oai_repository_identifier = key(
        raw.oai_repository_identifier,
        &|text| {
            if is_repository_identifier(text) {
                Ok(text.to_string())
            } else {
                Err(format!("`{text}` is not a domain name"))
            }
        },
        "OAI identifiers name the repository by a domain name it controls, e.g. \
         `oai_repository_identifier = \"archive.example.org\"`",
    );

    let mut listed: Vec<Label> = Vec::new();
    for raw_label in raw.labels {
        let name = raw_label.term.get_ref();
        let Some(term) = terms::lookup_prefixed(name) else {
            let local = name.rsplit(':').next().unwrap_or(name);
            let diagnostic = diagnostics.error_at(
                sources,
                file,
                raw_label.term.span(),
                "E034",
                format!("`{name}` is not a Dublin Core term"),
            );
            diagnostic.help = Some(
                match suggest::closest(local, terms::names(terms::Namespace::Dcterms)) {
                    Some(best) => format!("did you mean `dcterms:{best}`?"),
                    None => "write terms as `dcterms:<name>` or `dc:<name>`".into(),
                },
            );
            continue;
        };
        if listed.iter().any(|l| l.term.name == term.name) {
            diagnostics.error_at(
                sources,
                file,
                raw_label.term.span(),
                "E034",
                format!("`{name}` is given a label twice"),
            );
            continue;
        }
        let label = raw_label.label.into_inner();
        if label.trim().is_empty() {
            diagnostics.error_at(
                sources,
                file,
                raw_label.term.span(),
                "E034",
                format!("the label of `{name}` is empty"),
            );
            continue;
        }
        listed.push(Label { term, label });
    }
    let rest: Vec<Label> = config
        .labels
        .into_iter()
        .filter(|l| !listed.iter().any(|m| m.term.name == l.term.name))
        .collect();
    listed.extend(rest);
    config.labels = listed;
    config
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> (Config, Diagnostics) {
        let mut sources = SourceMap::default();
        let file = sources.add("ludotheca.toml".into(), text.into());
        let mut diagnostics = Diagnostics::new();
        let config = parse(&sources, file, &mut diagnostics);
        (config, diagnostics)
    }

    #[test]
    fn the_oai_gateway_and_repository_identifier() {
        let (config, d) = parse_text(
            "title = \"T\"\noai_gateway = \"http://gateway.example.org/oai\"\noai_repository_identifier = \"games.example.org\"\n",
        );
        assert!(d.is_empty());
        assert_eq!(
            config.oai_gateway.as_deref(),
            Some("http://gateway.example.org/oai/")
        );
        assert_eq!(
            repository_identifier(&config, Some("https://other.example.net/")),
            "games.example.org"
        );
        let (config, d) = parse_text(
            "title = \"T\"\noai_gateway = \"gateway\"\noai_repository_identifier = \"ludotheca\"\n",
        );
        assert_eq!(d.into_vec().len(), 2);
        assert_eq!(config.oai_gateway, None);
        assert_eq!(
            repository_identifier(
                &config,
                Some("https://user@Archive.Example.org:8080/games/")
            ),
            "archive.example.org"
        );
        assert_eq!(
            repository_identifier(&config, Some("http://127.0.0.1:8000/")),
            "ludotheca.invalid"
        );
        assert_eq!(repository_identifier(&config, None), "ludotheca.invalid");
        assert!(is_repository_identifier("a.example-2.org"));
        assert!(!is_repository_identifier("example.o"));
        assert!(!is_repository_identifier("2example.org"));
    }

    #[test]
    fn listed_labels_come_first() {
        let (config, d) = parse_text(
            "title = \"T\"\n[[labels]]\nterm = \"dcterms:spatial\"\nlabel = \"Region\"\n",
        );
        assert!(d.is_empty());
        assert_eq!(config.labels.len(), 55);
        assert_eq!(config.labels[0].label, "Region");
        assert_eq!(config.labels[1].term.name, "title");
        assert_eq!(
            config.label(terms::lookup_prefixed("dc:title").unwrap()),
            "Title"
        );
        assert_eq!(
            config.label(terms::lookup_prefixed("dcterms:accrualMethod").unwrap()),
            "Entered by"
        );
    }

    #[test]
    fn unknown_terms_are_reported_with_a_suggestion() {
        let (_, d) =
            parse_text("title = \"T\"\n[[labels]]\nterm = \"dcterms:spatail\"\nlabel = \"x\"\n");
        let d = d.into_vec();
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0].help.as_deref(),
            Some("did you mean `dcterms:spatial`?")
        );
        assert_eq!(d[0].location.as_ref().unwrap().line, 3);
    }

    #[test]
    fn base_url_names_a_folder_and_contact_an_address() {
        let (config, d) = parse_text(
            "title = \"T\"\nbase_url = \"https://example.org/games\"\ncontact = \"editors@example.org\"\n",
        );
        assert!(d.is_empty());
        assert_eq!(
            config.base_url.as_deref(),
            Some("https://example.org/games/")
        );
        assert_eq!(config.contact.as_deref(), Some("editors@example.org"));
    }

    #[test]
    fn a_relative_base_url_and_a_bad_contact_are_reported() {
        let (config, d) =
            parse_text("title = \"T\"\nbase_url = \"games/\"\ncontact = \"the editors\"\n");
        let d = d.into_vec();
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d[0].message.contains("not an http or https address"));
        assert_eq!(d[0].location.as_ref().unwrap().line, 2);
        assert!(d[1].message.contains("not an e-mail address"));
        assert_eq!(d[1].location.as_ref().unwrap().line, 3);
        assert_eq!(config.base_url, None);
        assert_eq!(config.contact, None);
    }
}
