"""The benchmarks that compare whole `thumbs` processes with their peers (or with each other, as
isolation does its two modes), one module each, run by the shell wrappers in scripts/
(`python3 -m thumbs_tools.bench.NAME`). They share the runner
(thumbs_tools.runner), the figures' arithmetic (thumbs_tools.figures), the parsing of thumbs'
JSON events (thumbs_tools.events) and the report's forms (thumbs_tools.report)."""
