// Search for the site read from disk (file://), where browsers refuse what mkdocs's own
// search needs: a web worker and an XHR for search/search_index.json. The index comes as a
// script instead (search/search_index.js, written by mkdocs_hooks.py), and lunr (the
// search plugin's search/lunr.js) runs on the page. Served over http, this does nothing.
var wadlclientSearch = (function () {
  "use strict";

  // The pages (and sections) of ``data`` (the search index) that match ``query``.
  function find(data, query) {
    if (!find.index) {
      find.index = lunr(function () {
        this.field("title");
        this.field("text");
        this.ref("location");
        data.docs.forEach(function (doc) { this.add(doc); }, this);
      });
      find.docs = {};
      data.docs.forEach(function (doc) { find.docs[doc.location] = doc; });
    }
    // Each word as typed (lunr stems it: "retries" finds "retry") and as a prefix.
    var terms = query.replace(/[~^:*+-]/g, " ").trim().split(/\s+/).filter(Boolean)
      .map(function (term) { return term + " " + term + "*"; });
    if (!terms.length) {
      return [];
    }
    return find.index.search(terms.join(" ")).map(function (hit) {
      var doc = find.docs[hit.ref];
      return {location: doc.location, title: doc.title, summary: doc.text.substring(0, 140)};
    });
  }

  function escapeHtml(value) {
    return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;")
      .replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function show(results, where) {
    where.innerHTML = results.length ? results.map(function (result) {
      return '<article><h3><a href="' + base_url + "/" + result.location + '">' +
        escapeHtml(result.title) + "</a></h3><p>" + escapeHtml(result.summary) + "</p></article>";
    }).join("") : "<p>" + escapeHtml(where.getAttribute("data-no-results-text") || "") + "</p>";
  }

  function load(path, then) {
    var tag = document.createElement("script");
    tag.src = base_url + "/" + path;
    tag.onload = then;
    document.head.appendChild(tag);
  }

  function start() {
    var input = document.getElementById("mkdocs-search-query");
    var results = document.getElementById("mkdocs-search-results");
    if (!input || !results) {
      return;
    }
    input.form.addEventListener("submit", function (event) { event.preventDefault(); });
    input.addEventListener("keyup", function () {
      show(find(window.wadlclientSearchIndex, input.value), results);
    });
  }

  if (typeof location !== "undefined" && location.protocol === "file:") {
    load("search/lunr.js", function () { load("search/search_index.js", start); });
  }
  return {find: find};
})();
