// The book's search box: MiniSearch (assets/minisearch.js) over the text of every page (assets/search-index.js,
// written by tools/book.py). Both load on the first use of the box, as script tags, so that a book opened from
// its files (file:) searches as well as one served by GitHub Pages.
(function () {
  'use strict';
  let engine = null;
  let loading = null;

  function load(src) {
    return new Promise(function (resolve, reject) {
      const s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error('cannot load ' + src)); };
      document.head.appendChild(s);
    });
  }

  function ready() {
    if (!loading) {
      loading = load('assets/minisearch.js').then(function () { return load('assets/search-index.js'); })
        .then(function () {
          engine = new MiniSearch({
            fields: ['title', 'text'],
            storeFields: ['title', 'href'],
            searchOptions: { prefix: true, fuzzy: 0.2, boost: { title: 3 }, combineWith: 'AND' }
          });
          engine.addAll(window.BOOK_SEARCH || []);
        });
    }
    return loading;
  }

  function show(box) {
    const list = document.getElementById('book-search-results');
    list.textContent = '';
    if (!box.value.trim()) { list.hidden = true; return; }
    const found = engine.search(box.value).slice(0, 10);
    if (found.length === 0) {
      const li = document.createElement('li');
      li.textContent = 'No page has all of these words.';
      list.appendChild(li);
    }
    found.forEach(function (r) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = r.href;
      a.textContent = r.title;
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = false;
  }

  document.addEventListener('DOMContentLoaded', function () {
    const box = document.getElementById('book-search');
    if (!box) return;
    box.addEventListener('focus', ready, { once: true });
    box.addEventListener('input', function () {
      ready().then(function () { show(box); });
    });
    box.addEventListener('keydown', function (e) {
      if (e.key === 'Escape') { box.value = ''; show(box); }
    });
  });
})();
