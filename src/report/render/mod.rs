//! Renderers of the analysis report: text for people ([`human`]), JSON ([`json`]), and the
//! files `analyze` writes beside it: the plan as Graphviz DOT ([`dot`]) and, through Graphviz,
//! SVG ([`svg`]), the self-contained HTML report ([`html`]) and the roofline ([`roofline`]).
//! Each returns data; the CLI writes it.

pub mod dot;
pub mod html;
pub mod human;
pub mod json;
pub mod roofline;
pub mod svg;
