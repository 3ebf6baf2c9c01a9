#!/usr/bin/env python3
"""The plan debugger page in headless Chromium against the real catalyzerd:
loads /, analyses a TPC-DS query (../shared/workloads; a TPC-DS-like query of
this file's own when that is absent) and a failing query, expands a plan
node, hovers an attribute, clicks an effective rule and checks the diff,
follows the page's fragment link, and walks the five seed cases of the
examples menu. Fails on any console error (CSP violations included). Prints
what the page transferred and its first paint (measured, not asserted).
Screenshots go to $CATALYZER_BUILD/web-screenshots/.

    test_debugger.py [--docs DIR]   also write the seed-case screenshots into DIR
"""
import json
import os
import re
import sys
import time

from daemon import Daemon, Tap, skip_all

import browser

why = browser.missing()
if why:
    skip_all(why)

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

DOCS = sys.argv[sys.argv.index("--docs") + 1] if "--docs" in sys.argv else None
BUILD = os.environ.get("CATALYZER_BUILD", ".")
SHOTS = os.path.join(BUILD, "web-screenshots")
SHARED = os.environ.get("CATALYZER_SHARED", "")
TPCDS = os.path.join(SHARED, "workloads", "tpcds")

t = Tap()
d = Daemon()
base = "http://127.0.0.1:%d/" % d.http_port
b = browser.Browser(1440, 1100)
shots = []


def shot(name):
    shots.append(b.screenshot(os.path.join(SHOTS, name + ".png")))


def no_console_errors(step):
    errs = b.console_errors()
    t.ok(not errs, "no console errors: " + step, "\n".join(e["message"] for e in errs))


def css(sel):
    return b.d.find_elements(By.CSS_SELECTOR, sel)


def text(sel):
    e = css(sel)
    return e[0].text if e else ""


# ---------------------------------------------------------------- load, size, first paint

def load():
    b.d.get(base)
    b.wait(lambda: b.js("return document.readyState") == "complete" and b.js("return !!document.getElementById('run')"),
           30, "the page")
    assert b.d.title == "Catalyzer plan debugger", b.d.title
    # the browser asks for the icon on its own time, after the load event: give it a moment
    # (a busy machine delays it) before counting what the page cost
    net = []

    def all_four():  # network() returns what finished since its last call: collect
        net.extend(n for n in b.network() if n[0].startswith(base))
        return len(net) >= 4
    try:
        b.wait(all_four, 10, "the page's four requests")
    except AssertionError:
        pass  # the assertion below says what was missing
    total = sum(n[2] for n in net)
    paint = b.wait(lambda: {e["name"]: e["startTime"] for e in
                            b.js("return performance.getEntriesByType('paint').map(e => e.toJSON())")}, 5, "a paint")
    print("# page transfer (first load, fresh profile): %d bytes in %d requests (%s)" %
          (total, len(net), ", ".join("%s %d" % (u[len(base) - 1:], n) for u, _, n in net)))
    print("# first paint %.0f ms, first contentful paint %.0f ms (cold browser)" %
          (paint.get("first-paint", -1), paint.get("first-contentful-paint", -1)))
    assert all(s == 200 for _, s, _ in net), net
    assert len(net) >= 4, net  # page, script, style, icon
    assert total <= 300 * 1024, total
    # again with the daemon and the browser warm, the cache off: the figure the issue names
    b.cdp("Network.enable")
    b.cdp("Network.setCacheDisabled", {"cacheDisabled": True})
    b.d.get("about:blank")
    b.network()
    b.d.get(base)
    b.wait(lambda: b.js("return document.readyState") == "complete", 30, "the page")
    paint = b.wait(lambda: {e["name"]: e["startTime"] for e in
                            b.js("return performance.getEntriesByType('paint').map(e => e.toJSON())")}, 5, "a paint")
    warm = sum(n[2] for n in b.network() if n[0].startswith(base))
    print("# first paint %.0f ms, first contentful paint %.0f ms (warm daemon and browser, cache off, %d bytes)" %
          (paint.get("first-paint", -1), paint.get("first-contentful-paint", -1), warm))
    b.cdp("Network.setCacheDisabled", {"cacheDisabled": False})
    shot("01-loaded")


t.check("GET / loads the page (transfer <= 300 KB)", load)
no_console_errors("load")

# ---------------------------------------------------------------- a TPC-DS query


def tpcds_catalog(schema_sql):
    tables = []
    for m in re.finditer(r"CREATE TABLE\s+(\w+)\s*\((.*?)\)\s*;", schema_sql, re.S | re.I):
        cols = []
        for c in re.split(r",\s*(?![^()]*\))", m.group(2)):
            c = c.strip()
            if c:
                name, typ = c.split(None, 1)
                cols.append({"name": name, "type": typ.lower()})
        tables.append({"name": m.group(1), "columns": cols})
    return {"tables": tables}


# TPC-DS-like (a CTE referenced twice, a correlated scalar subquery over it,
# joins, aggregates, ORDER BY/LIMIT) for clones without ../shared.
OWN_CATALOG = {"tables": [
    {"name": "store_returns", "columns": [{"name": "sr_returned_date_sk", "type": "int"}, {"name": "sr_customer_sk", "type": "int"},
                                          {"name": "sr_store_sk", "type": "int"}, {"name": "sr_return_amt", "type": "decimal(7,2)"}]},
    {"name": "date_dim", "columns": [{"name": "d_date_sk", "type": "int"}, {"name": "d_year", "type": "int"}]},
    {"name": "store", "columns": [{"name": "s_store_sk", "type": "int"}, {"name": "s_state", "type": "string"}]},
    {"name": "customer", "columns": [{"name": "c_customer_sk", "type": "int"}, {"name": "c_customer_id", "type": "string"}]},
]}
OWN_QUERY = """WITH customer_total_return AS (
  SELECT sr_customer_sk AS ctr_customer_sk, sr_store_sk AS ctr_store_sk, sum(sr_return_amt) AS ctr_total_return
  FROM store_returns, date_dim
  WHERE sr_returned_date_sk = d_date_sk AND d_year = 2000
  GROUP BY sr_customer_sk, sr_store_sk)
SELECT c_customer_id
FROM customer_total_return ctr1, store, customer
WHERE ctr1.ctr_total_return > (SELECT avg(ctr_total_return) * 1.2
                               FROM customer_total_return ctr2
                               WHERE ctr1.ctr_store_sk = ctr2.ctr_store_sk)
  AND s_store_sk = ctr1.ctr_store_sk AND s_state = 'TN' AND ctr1.ctr_customer_sk = c_customer_sk
ORDER BY c_customer_id
LIMIT 100"""

if os.path.isfile(os.path.join(TPCDS, "q1.sql")):
    QUERY_NAME = "TPC-DS q1"
    QUERY = open(os.path.join(TPCDS, "q1.sql"), encoding="utf-8").read()
    CATALOG = tpcds_catalog(open(os.path.join(TPCDS, "schema.sql"), encoding="utf-8").read())
else:
    print("# SKIP the TPC-DS query: %s is absent (../shared not beside the clone); "
          "using the TPC-DS-like query of this test instead" % TPCDS)
    QUERY_NAME = "TPC-DS-like query"
    QUERY, CATALOG = OWN_QUERY, OWN_CATALOG


def analyse_big():
    b.set_value("sql", QUERY)
    b.set_value("catalog", json.dumps(CATALOG, indent=1))
    b.set_value("conf", "")
    assert "tables" in text("#catalog-count") and str(len(CATALOG["tables"])) in text("#catalog-count"), text("#catalog-count")
    b.run_and_wait()
    status = text("#status")
    assert status.startswith("resolved"), status
    assert len(css("#tree-u .n")) > 10 and len(css("#tree-a .n")) > 10, "trees"
    assert css("#tree-a .out"), "analysed nodes show their output attributes"
    lanes = css("#timeline .lane")
    boxes = css("#timeline .ev.eff")
    rows = css("#rules tr.rule:not(.noeff)")
    assert lanes and boxes and rows and len(rows) == len(boxes), (len(lanes), len(boxes), len(rows))
    names = [e.text for e in css("#timeline .lane .name")]
    print("# %s: %d lanes (%s), %d effective rule applications; %s" % (QUERY_NAME, len(lanes), ", ".join(names), len(rows), status))
    # q1 resolves its CTE definition (the query under its alias) and a scalar subquery in nested
    # analyses: their own lanes
    assert len(lanes) >= 3 and names[0] == "query", names
    assert any(n.startswith("subquery customer_total_return") or n.startswith("subquery ctr") for n in names) \
        and any(n.startswith("scalar-subquery") for n in names), names
    shot("02-tpcds")


t.check("analyses %s with its catalog: both trees, outputs, timeline with nested lanes" % QUERY_NAME, analyse_big)
no_console_errors("TPC-DS analysis")

# ---------------------------------------------------------------- expand, hover, click, link


def expand_node():
    closed = css("#tree-a .n.closed")
    assert closed, "a large plan starts with deep nodes collapsed"
    n = closed[0]
    kids = n.find_element(By.CSS_SELECTOR, ":scope > .kids")
    assert not kids.is_displayed()
    b.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", n)
    n.find_element(By.CSS_SELECTOR, ":scope > .row > .tog").click()
    assert "closed" not in n.get_attribute("class") and kids.is_displayed()
    global EXPANDED
    EXPANDED = n.get_attribute("data-path")


EXPANDED = None
t.check("expands a collapsed node of the analysed plan", expand_node)


def hover_attribute():
    ids = b.js("""
      const count = {};
      for (const s of document.querySelectorAll('#tree-a .id')) count[s.dataset.id] = (count[s.dataset.id] || 0) + 1;
      return Object.keys(count).filter(k => count[k] >= 3 &&
        document.querySelector('#tree-a .n[data-defs*=" ' + k + ' "]'));""")
    assert ids, "an attribute defined in the plan and used in several places"
    target = None
    for span in css("#tree-a .id[data-id='%s']" % ids[0]):
        if span.is_displayed():
            target = span
            break
    b.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    ActionChains(b.d).move_to_element(target).perform()
    b.wait(lambda: target.get_attribute("class").find("hl") >= 0, 5, "the highlight")
    same = css(".id[data-id='%s']" % ids[0])
    lit = css(".id.hl")
    assert len(lit) == len(same) >= 3, (len(lit), len(same))
    assert all(e.get_attribute("data-id") == ids[0] for e in lit)
    assert css(".n.defn"), "the defining node is marked"
    shot("03-hover")
    ActionChains(b.d).move_by_offset(0, 0).move_to_element(b.d.find_element(By.ID, "status")).perform()
    b.wait(lambda: not css(".id.hl"), 5, "the highlight to clear")
    # a CTE reference leads to its definition
    refs = b.js("return Array.from(document.querySelectorAll('#tree-a .id')).filter(e => e.textContent.startsWith('CTERelationRef'))")
    assert refs, "the analysed plan shows a CTE reference"
    b.js("for (let n = arguments[0].closest('.n.closed'); n; n = n.parentElement.closest('.n.closed'))"
         "  n.querySelector(':scope > .row > .tog').click();", refs[0])  # open the nodes above it
    b.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", refs[0])
    ActionChains(b.d).move_to_element(refs[0]).perform()
    b.wait(lambda: css("#tree-a .id.hl.def"), 5, "the CTE definition to light up")
    assert all(e.text.startswith("CTERelationDef") for e in css("#tree-a .id.hl.def"))
    ActionChains(b.d).move_to_element(b.d.find_element(By.ID, "status")).perform()


t.check("hovering an attribute highlights every occurrence of its expression id and its definition; a CTE reference its definition",
        hover_attribute)

SELECTED = {}


def click_rule():
    rows = [r for r in css("#rules tr.rule") if "ResolveReferences" in r.text]
    assert rows, "ResolveReferences was effective"
    row = rows[0]
    b.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    assert "sel" in row.get_attribute("class")
    seq = row.get_attribute("data-seq")
    assert css("#timeline .ev.sel[data-seq='%s']" % seq), "the timeline box is selected too"
    assert text("#diff-title").startswith("ResolveReferences"), text("#diff-title")
    adds, dels = css("#diff .l.add"), css("#diff .l.del")
    assert adds and dels, "the diff shows removed and added lines"
    assert any("'" in e.text for e in dels), "a removed line had unresolved ('x) names"
    SELECTED.update(seq=seq, title=text("#diff-title"), diff=b.js("return document.getElementById('diff').textContent"))
    b.d.execute_script("document.getElementById('diff-pane').scrollIntoView()")
    shot("04-diff")


t.check("clicking an effective rule selects it and shows its plan diff", click_rule)
no_console_errors("expand, hover, click")


def follow_link():
    b.wait(lambda: b.js("return document.getElementById('link').getAttribute('href').length > 20 && "
                        "location.hash === document.getElementById('link').getAttribute('href')"), 10, "the link")
    href = b.js("return document.getElementById('link').href")
    assert len(href) < 200000, len(href)
    print("# fragment link: %d characters" % len(href))
    b.d.get("about:blank")
    b.d.get(href)
    b.wait(lambda: b.js("return !!document.body && !!document.body.dataset.done"), 120, "the linked session to run")
    assert b.js("return document.getElementById('sql').value") == QUERY
    assert json.loads(b.js("return document.getElementById('catalog').value")) == CATALOG
    assert text("#status").startswith("resolved"), text("#status")
    sel = css("#rules tr.sel")
    assert sel and sel[0].get_attribute("data-seq") == SELECTED["seq"], "the same rule is selected"
    untimed = lambda s: re.sub(r"[\d.]+ (µs|ms)", "", s)  # noqa: E731
    assert untimed(text("#diff-title")) == untimed(SELECTED["title"]), (text("#diff-title"), SELECTED["title"])
    assert b.js("return document.getElementById('diff').textContent") == SELECTED["diff"], "the same diff"
    n = css("#tree-a .n[data-path='%s']" % EXPANDED)
    assert n and "closed" not in n[0].get_attribute("class"), "the expanded node is open again"
    shot("05-link")


t.check("the page's fragment link reproduces the session: inputs, selected rule, diff, expanded node", follow_link)
no_console_errors("fragment link")

# ---------------------------------------------------------------- a failing query


def failing():
    b.set_value("catalog", "")
    b.set_value("sql", "SELECT a, nope\nFROM (SELECT 1 AS a)")
    b.run_and_wait()
    assert text("#status").startswith("analysis error"), text("#status")
    assert css("#error")[0].is_displayed()
    assert text("#error .cls") == "UNRESOLVED_COLUMN.WITH_SUGGESTION", text("#error .cls")
    assert "SQLSTATE 42703" in text("#error"), text("#error")
    params = [r.text for r in css("#error table tr")]
    assert any(p.startswith("objectName") and "nope" in p for p in params), params
    assert any(p.startswith("proposal") for p in params), params
    assert text("#error .ctx") == "nope", text("#error .ctx")
    assert css("#tree-u .n") and not css("#tree-a .n"), "the unresolved plan only"
    shot("06-error")
    b.set_value("sql", "SELECT FROM WHERE")
    b.run_and_wait()
    assert text("#status") == "parse error" and text("#error .cls").startswith("PARSE_SYNTAX_ERROR"), text("#error")
    assert "SQLSTATE 42601" in text("#error")


t.check("a failing query: error class, SQLSTATE, parameters, the query context underlined; a parse error", failing)
no_console_errors("failing query")

# ---------------------------------------------------------------- a plan instead of SQL


def connect_plan():
    b.d.find_element(By.CSS_SELECTOR, ".tab[data-mode='plan']").click()
    assert b.d.find_element(By.ID, "plan").is_displayed() and not b.d.find_element(By.ID, "sql").is_displayed()
    plan = json.loads(b.js("return document.getElementById('plan').value"))
    assert "project" in plan, plan  # the example plan
    b.set_value("catalog", json.dumps({"tables": [{"name": "employee", "columns": [
        {"name": "dept", "type": "int"}, {"name": "salary", "type": "int"}, {"name": "bonus", "type": "int"}]}]}))
    b.run_and_wait()
    assert text("#status").startswith("resolved"), text("#status")
    assert text("#tree-u .n .txt").startswith("project {"), text("#tree-u .n .txt")
    assert "(salary#" in text("#tree-a") and "AS pay#" in text("#tree-a"), text("#tree-a")
    b.d.find_element(By.CSS_SELECTOR, ".tab[data-mode='sql']").click()
    b.set_value("catalog", "")


t.check("an unresolved plan in protobuf JSON (the Connect plan tab) is analysed", connect_plan)
no_console_errors("plan input")

# ---------------------------------------------------------------- the seed cases

SEEDS = [("lateral-column-alias", "ResolveLateralColumnAliasReference"), ("outer-aggregate", "UpdateOuterReferences"),
         ("alias-in-subquery", "ResolveAliasInSubquery"), ("cte-identifier-variables", "ResolveIdentifierClause"),
         ("lateral-join", "ResolveSubquery")]


def seed(i, name, rule):
    def check():
        before = b.done_count()
        b.js("const s = document.getElementById('example'); s.value = arguments[0];"
             "s.dispatchEvent(new Event('change'));", str(i))
        b.wait_next_done(before)
        assert text("#status").startswith("resolved"), text("#status")
        rows = [r for r in css("#rules tr.rule") if r.find_elements(By.CSS_SELECTOR, "td")[1].text.endswith(rule)]
        assert rows, "%s resolved it" % rule
        rows[-1 if rule == "ResolveLateralColumnAliasReference" else 0].click()
        assert css("#diff .l.add"), "its diff"
        path = os.path.join(SHOTS, "seed-%d-%s.png" % (i + 1, name))
        b.d.execute_script("document.getElementById('out').scrollTop = 0; document.getElementById('rules').scrollLeft = 0")
        shots.append(b.screenshot(path))
        if DOCS:
            b.screenshot(os.path.join(DOCS, "%d-%s.png" % (i + 1, name)))
    return check


for i, (name, rule) in enumerate(SEEDS):
    t.check("seed case %d (%s) resolves, %s's diff shown" % (i + 1, name, rule), seed(i, name, rule))
no_console_errors("seed cases")

b.quit()
print("# screenshots: " + ", ".join(os.path.relpath(s, BUILD) for s in shots))
t.ok(d.alive(), "daemon alive")
t.ok(d.stop() == 0, "daemon drains and exits 0")
t.done()
