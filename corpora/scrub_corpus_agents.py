"""The non-HR agent set: a travel-booking agent, an IT-operations agent (Kubernetes, Helm) and a coding
agent (file paths, stack traces), as span attributes, with keep labels for what is not personal: field
labels, words NER takes for names, tool / model / product names, software resource attributes
(`service.*`, `k8s.*`, Monocle `entity.N.name`), cities and airports, media types, path tails, versions.

    .venv/bin/python -m benchmarks.accuracy.scrub_accuracy --set agents [--phrasing heldout] [--seed N]

The held-out family words every message, listing and trace differently (and uses other keep values).
"""

from __future__ import annotations

import random
import unicodedata

from corpora import scrub_corpus_faker as fk
from corpora.scrub_corpus import LabelledTrace, assemble_trace
from corpora.scrub_corpus_text import Seg, fmt, keep, pii, render_json, render_text

DEFAULT_SEED = 20261202
PII_TYPES = ("PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "USER_NAME", "IP_ADDRESS")
KEEP_CATEGORIES = ("LABEL", "TECH_WORD", "VERB", "MODEL", "TOOL", "RESOURCE", "CITY", "AIRPORT", "HOTEL",
                   "MEDIA_TYPE", "PATH", "VERSION")
PHRASINGS = ("main", "heldout")

_V = {
    "main": {"models": ("gpt-4o", "gpt-4o-mini", "claude-3-5-sonnet", "gemini-2.0-flash"),
             "cities": ("San Francisco", "New York", "Chicago", "Seattle", "Boston"),
             "airports": ("JFK", "SFO", "ORD", "SEA", "BOS"),
             "hotels": ("Hotel Adlon Kempinski", "Marriott Marquis", "Hilton Garden Inn", "The Plaza Hotel"),
             "releases": ("jaeger", "grafana", "prometheus", "ingress-nginx"),
             "namespaces": ("observability", "payments", "monitoring", "default"),
             "verbs": ("Show", "Fetch", "Check", "List"),
             "tech": ("Helm", "Kubernetes", "metadata", "kubectl"),
             "labels": ("Namespace", "Revision", "Status", "Chart")},
    "heldout": {"models": ("o3-mini", "claude-3-7-sonnet", "gemini-2.5-pro", "llama-3.1-70b"),
                "cities": ("Los Angeles", "Denver", "Austin", "Miami", "Portland"),
                "airports": ("LAX", "DEN", "AUS", "MIA", "PDX"),
                "hotels": ("Grand Hyatt", "Ritz-Carlton", "Holiday Inn Express", "Four Seasons Resort"),
                "releases": ("loki", "tempo", "cert-manager", "argo-cd"),
                "namespaces": ("logging", "checkout", "platform", "kube-system"),
                "verbs": ("Get", "Describe", "Inspect", "Restart"),
                "tech": ("Docker", "Istio", "labels", "Argo"),
                "labels": ("Updated", "App Version", "Name", "Replicas")},
}


def _ascii(name: str) -> str:
    """How a name becomes an account or host name: accents dropped, ł/ø/ß spelled out, spaces removed."""
    folded = unicodedata.normalize("NFKD", name.lower().translate(_FOLD))
    return "".join(ch for ch in folded if "a" <= ch <= "z")


_FOLD = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th"})


def _cast(rng: random.Random, phrasing: str) -> dict[str, Seg | str]:
    v = _V[phrasing]
    locale = rng.choice(fk.LOCALES)
    person, other = fk.Person(rng, locale), fk.Person(rng, rng.choice(fk.LOCALES))
    # account and host names are ASCII: drawn from a person of a Latin-script locale
    dev = fk.Person(rng, rng.choice(("en_US", "de_DE", "fr_FR", "it_IT", "es_ES", "nl_NL", "fi_FI", "pl_PL")))
    ascii_first = _ascii(dev.first) or "sam"
    ascii_last = _ascii(dev.last) or "lee"
    user = rng.choice((ascii_first, f"{ascii_first[0]}{ascii_last}", f"{ascii_first}.{ascii_last}"))
    release = rng.choice(v["releases"])
    pod = f"{release}-{rng.randrange(16**6):06x}-{rng.randrange(36**5):05x}"
    return {
        "locale": locale, "full": pii(person.full, "PERSON"), "first": pii(person.first, "PERSON"),
        "other": pii(other.full, "PERSON"), "email": pii(fk.email(rng, locale), "EMAIL_ADDRESS"),
        "phone": pii(fk.phone(rng, locale), "PHONE_NUMBER"), "card": pii(fk.card(rng, locale), "CREDIT_CARD"),
        "user": pii(user, "USER_NAME"), "deploy": pii(ascii_first, "USER_NAME"),
        "ip": pii(fk.ipv4(rng), "IP_ADDRESS"),
        "model": keep(rng.choice(v["models"]), "MODEL"), "city": keep(rng.choice(v["cities"]), "CITY"),
        "city2": keep(rng.choice(v["cities"]), "CITY"), "airport": keep(rng.choice(v["airports"]), "AIRPORT"),
        "airport2": keep(rng.choice(v["airports"]), "AIRPORT"),
        "hotel": keep(rng.choice(v["hotels"]), "HOTEL"),
        "release": keep(release, "RESOURCE"), "pod": keep(pod, "RESOURCE"),
        "ns": keep(rng.choice(v["namespaces"]), "RESOURCE"),
        "chart": keep(f"{release}-{rng.randrange(1, 9)}.{rng.randrange(20)}.{rng.randrange(10)}", "VERSION"),
        "app_version": keep(f"{rng.randrange(1, 4)}.{rng.randrange(30)}.{rng.randrange(10)}", "VERSION"),
        "v1": keep(v["verbs"][0], "VERB"), "v2": keep(v["verbs"][1], "VERB"),
        "v3": keep(v["verbs"][2], "VERB"), "t1": keep(v["tech"][0], "TECH_WORD"),
        "t2": keep(v["tech"][1], "TECH_WORD"), "t3": keep(v["tech"][2], "TECH_WORD"),
        "t4": keep(v["tech"][3], "TECH_WORD"), "l1": keep(v["labels"][0], "LABEL"),
        "l2": keep(v["labels"][1], "LABEL"), "l3": keep(v["labels"][2], "LABEL"),
        "l4": keep(v["labels"][3], "LABEL"), "json": keep("json", "TECH_WORD"),
        "media": keep(rng.choice(("application/json", "text/plain")),
                                                         "MEDIA_TYPE"),
        "path": keep(rng.choice(("src/agent/tools.py", "app/services/booking.py", "lib/k8s/client.py")),
                     "PATH"),
        "path2": keep(rng.choice(("agent/main.py", "tests/test_api.py", "pkg/runner/run.py")), "PATH"),
        "line": keep(f"line {rng.randrange(10, 400)}", "PATH"),
        "tool_search": keep("search_flights", "TOOL"), "tool_helm": keep("helm_list", "TOOL"),
        "tool_read": keep("read_file", "TOOL"),
    }


# scenario -> phrasing -> texts (user message, tool output, reply)
TEXTS = {
    "travel": {
        "main": ("I'm {full}, book {airport} to {airport2} for me and {other}; card {card}, phone {phone}.",
                 "{l1}: {ns}\nHotel: {hotel} in {city}\nGuest: {full}\nEmail: {email}",
                 ("{first}, you're booked {airport}-{airport2} and at {hotel}, {city}. Model {model} "
                  "did the search.")),
        "heldout": (("Need a trip {city} -> {city2} next week. Traveller {full}, co-traveller "
                     "{other}, pay by {card}."),
                    "Reservation\n  guest = {full}\n  hotel = {hotel}\n  city = {city}\n  contact = {phone}",
                    "Booked! {hotel} in {city2} for {first}. Confirmation sent to {email}."),
    },
    "itops": {
        "main": ("pods in {ns} keep crashing, ping {first} ({email}) or call {phone}",
                 "{l1}: {ns}\n{l2}: 3\n{l3}: deployed\n{l4}: {chart}\n  - app_version: {app_version}\n"
                 "  - owner: {full}\n  - node: {ip}",
                 "Plan:\n- {v1} pods in {ns}\n- {v2} {t3}\n- {v3} {t1} release {release} on {t2}\n"
                 "Pod {pod} restarted; {full} is on call."),
        "heldout": ("{first} here: {release} in {ns} is down since the upgrade, my number is {phone}",
                    "{l1}: {release}\n{l2}: {app_version}\n{l3}: {ns}\n{l4}: 2\nmaintainer: "
                    "{full} <{email}>\nhost: {ip}",
                    "Steps:\n1. {v1} the {t4} app {release}\n2. {v2} {t2} sidecars\n3. {v3} {t3} of {pod}\n"
                    "Escalated to {other} via {t1}."),
    },
    "coding": {
        "main": ("fix the failing test, {full} wrote it; output should be {json}",
                 'Traceback (most recent call last):\n  File "/Users/{user}/{path}", {line}, in run\n'
                 '  File "/home/{user}/{path2}", line 7, in <module>\nKeyError: \'id\'',
                 "Fixed {path}. Author of the test: {other}. Response type {media}, model {model}."),
        "heldout": ("can you look at {path}? {other} said it breaks on windows. use {json} output",
                    "Error at C:\\Users\\{user}\\repo\\{path2} ({line})\n  called from /Users/{user}/{path}",
                    "Patched {path2} for {first}; content type {media}; reviewed by {other} with {model}."),
    },
}


def generate_trace(seed: int, index: int, phrasing: str = "main") -> LabelledTrace:
    rng = random.Random(seed * 1_000_003 + index)
    scenario = sorted(TEXTS)[index % len(TEXTS)]
    s = _cast(rng, phrasing)
    user, output, reply = (fmt(t, s) for t in TEXTS[scenario][phrasing])
    tool = {"travel": "tool_search", "itops": "tool_helm", "coding": "tool_read"}[scenario]
    compact = rng.random() < 0.5
    agent_name = keep(f"{scenario}_agent", "RESOURCE")
    endpoint = fmt(
        "https://{deploy}-openai.openai.azure.com/openai/deployments/{deploy}-gpt4o/chat/completions", s
    )
    items = [
        ("resource_attribute", "service.name", "text",
         render_text(fmt("{r}", {"r": keep(f"{scenario}-svc", "RESOURCE")}))),
        ("resource_attribute", "k8s.pod.name", "text", render_text(fmt("{pod}", s))),
        ("resource_attribute", "k8s.namespace.name", "text", render_text(fmt("{ns}", s))),
        ("resource_attribute", "entity.1.name", "text", render_text(fmt("{a}", {"a": agent_name}))),
        ("resource_attribute", "entity.2.name", "text", render_text(fmt("{model}", s))),
        ("resource_attribute", "code.filepath", "text", render_text(fmt("/Users/{user}/{path}", s))),
        ("resource_attribute", "url.full", "text", render_text(endpoint)),
        ("user_message", "gen_ai.input.messages", "json",
         render_json([{"role": "user", "parts": [{"type": "text", "content": user}]}], compact=compact)),
        ("tool_args", "gen_ai.tool.call.arguments", "json",
         render_json({"name": s[tool], "args": {"output": s["json"], "namespace": s["ns"]}},
                     compact=compact)),
        ("stack_trace" if scenario == "coding" else "tool_output", "gen_ai.tool.call.result", "text",
         render_text(output)),
        ("model_reply", "gen_ai.output.messages", "json",
         render_json([{"role": "assistant", "parts": [{"type": "text", "content": reply}]}],
                     compact=compact)),
    ]
    return assemble_trace(f"a{index:04d}", f"{scenario}/{s['locale']}", items)


def generate_corpus(
    n_traces: int = 300, seed: int = DEFAULT_SEED, phrasing: str = "main"
) -> list[LabelledTrace]:
    return [generate_trace(seed, i, phrasing) for i in range(n_traces)]
