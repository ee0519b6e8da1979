"""The one declarative description of the service's resources.

The WADL document (:mod:`cookbook_service.wadl`) and the JSON representations
(:mod:`cookbook_service.app`) are both generated from these objects, so a
field or operation added here appears in both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

FieldKind = Literal[
    "string", "int", "boolean", "datetime", "decimal", "link", "collection", "hosted_file"
]
ParamKind = Literal["string", "datetime", "decimal", "link", "options", "binary"]
ReturnKind = Literal["page", "factory", "moved", "entry", "nothing"]

#: The options of a cookbook's ``cuisine`` (non-ASCII on purpose).
CUISINES: tuple[str, ...] = ("American", "Dessert", "Française", "General", "Vegetarian")

#: The value served in place of a field the caller may not see.
REDACTED = "tag:launchpad.net:2008:redacted"

WADL_MEDIA_TYPES: tuple[str, ...] = (
    "application/vnd.example.wadl+xml",
    "application/vnd.sun.wadl+xml",
)

#: The versions the service publishes, and the service root's max-age for each.
VERSIONS: dict[str, int] = {"1.0": 6 * 3600, "devel": 2}


#: The WADL ``type`` of a field or parameter kind (kinds not listed have none).
_XSD_TYPES = {
    "datetime": "xsd:dateTime",
    "decimal": "xsd:decimal",
    "hosted_file": "binary",
    "binary": "binary",
}


@dataclass(frozen=True)
class Field:
    """One field of an entry's JSON representation.

    ``target`` is the resource type a link or scoped collection points to.
    Only ``writable`` fields may change through PATCH/PUT.
    """

    name: str
    kind: FieldKind
    doc: str
    writable: bool = False
    target: str | None = None
    options: tuple[str, ...] = ()

    @cached_property
    def json_name(self) -> str:
        """The key under which the field appears in JSON."""
        if self.kind in ("link", "hosted_file"):
            return f"{self.name}_link"
        if self.kind == "collection":
            return f"{self.name}_collection_link"
        return self.name

    @property
    def xsd_type(self) -> str | None:
        """The ``type`` attribute of the field's WADL param, if any."""
        return _XSD_TYPES.get(self.kind)


@dataclass(frozen=True)
class Param:
    """One parameter of a named operation."""

    name: str
    kind: ParamKind
    doc: str
    required: bool = True
    options: tuple[str, ...] = ()
    target: str | None = None

    @property
    def xsd_type(self) -> str | None:
        return _XSD_TYPES.get(self.kind)


@dataclass(frozen=True)
class Operation:
    """A named operation (``ws.op``).

    ``returns`` is ``("page", type)`` for a collection of entries,
    ``("entry", type)`` for one entry (or null), ``("factory", type)`` for a
    201 Created with ``Location``, ``("moved", type)`` for an operation that
    moves its entry (301), or ``("nothing", "")``.
    """

    name: str
    http_method: Literal["GET", "POST"]
    doc: str
    params: tuple[Param, ...]
    returns: tuple[ReturnKind, str]

    @property
    def form_media_type(self) -> str:
        """How a POST sends its arguments: multipart when any is binary."""
        if any(p.kind == "binary" for p in self.params):
            return "multipart/form-data"
        return "application/x-www-form-urlencoded"


@dataclass(frozen=True)
class EntryType:
    """An entry resource type, e.g. ``recipe``; its top-level collection is ``plural``."""

    name: str
    plural: str
    doc: str
    fields: tuple[Field, ...]
    operations: tuple[Operation, ...] = ()
    collection_operations: tuple[Operation, ...] = ()
    deletable: bool = False

    def field(self, json_name: str) -> Field | None:
        """The field whose JSON key is ``json_name``, if any."""
        for candidate in self.fields:
            if candidate.json_name == json_name:
                return candidate
        return None

    def operation(self, name: str, *, on_collection: bool = False) -> Operation | None:
        ops = self.collection_operations if on_collection else self.operations
        for op in ops:
            if op.name == name:
                return op
        return None


_SEARCH = Param("search", "string", "Text to look for in the recipe's instructions.")
#: As Launchpad's ``searchTasks(modified_since=...)``: a sync job reads only what changed.
_MODIFIED_SINCE = Param(
    "modified_since",
    "datetime",
    "Only recipes changed at or after this date-time.",
    required=False,
)

RECIPE = EntryType(
    name="recipe",
    plural="recipes",
    doc="A recipe for a dish, printed in a cookbook.",
    fields=(
        Field("id", "int", "The recipe's unique number."),
        Field("instructions", "string", "How to prepare the dish.", writable=True),
        Field("private", "boolean", "Whether only privileged callers may see this recipe."),
        Field("dish", "link", "The dish this recipe prepares.", writable=True, target="dish"),
        Field(
            "cookbook",
            "link",
            "The cookbook this recipe is printed in.",
            writable=True,
            target="cookbook",
        ),
        Field("date_last_modified", "datetime", "When the recipe was last changed."),
    ),
    deletable=True,
)

DISH = EntryType(
    name="dish",
    plural="dishes",
    doc="A dish; many recipes may prepare it.",
    fields=(
        Field("id", "int", "The dish's unique number."),
        Field("name", "string", "The dish's name.", writable=True),
        Field("recipes", "collection", "The recipes for this dish.", target="recipe"),
    ),
)

COOKBOOK = EntryType(
    name="cookbook",
    plural="cookbooks",
    doc="A cookbook; its URL is made from its name.",
    fields=(
        Field("id", "int", "The cookbook's unique number."),
        Field("name", "string", "The cookbook's name (renaming moves it).", writable=True),
        Field("cuisine", "string", "The cookbook's cuisine.", writable=True, options=CUISINES),
        Field("copyright_date", "datetime", "When the cookbook was first copyrighted."),
        Field("price", "decimal", "The cover price.", writable=True),
        Field("last_printing", "datetime", "When the cookbook was last printed.", writable=True),
        Field("description", "string", "A description of the cookbook.", writable=True),
        Field("recipes", "collection", "The recipes in this cookbook.", target="recipe"),
        Field("cover", "hosted_file", "The cookbook's cover image.", target="HostedFile"),
    ),
    operations=(
        Operation(
            "find_recipes",
            "GET",
            "Find recipes in this cookbook whose instructions contain the search text.",
            (_SEARCH, _MODIFIED_SINCE),
            ("page", "recipe"),
        ),
        Operation(
            "find_recipe_for",
            "GET",
            "This cookbook's recipe for a dish, or null.",
            (Param("dish", "link", "The dish.", target="dish"),),
            ("entry", "recipe"),
        ),
        Operation(
            "replace_cover",
            "POST",
            "Replace the cookbook's cover with these bytes.",
            (Param("cover", "binary", "The new cover image."),),
            ("nothing", ""),
        ),
        Operation(
            "make_more_interesting",
            "POST",
            "Rename the cookbook to 'The New <name>'; it moves (301).",
            (),
            ("moved", "cookbook"),
        ),
    ),
    collection_operations=(
        Operation(
            "find_recipes",
            "GET",
            "Find recipes whose instructions contain the search text.",
            (_SEARCH, _MODIFIED_SINCE),
            ("page", "recipe"),
        ),
        Operation(
            "find_for_cuisine",
            "GET",
            "Find the cookbooks of a cuisine.",
            (Param("cuisine", "options", "The cuisine.", options=CUISINES),),
            ("page", "cookbook"),
        ),
        Operation(
            "create",
            "POST",
            "Create a cookbook.",
            (
                Param("name", "string", "The new cookbook's name."),
                Param("cuisine", "options", "The cuisine.", options=CUISINES),
                Param("copyright_date", "datetime", "The copyright date."),
                Param("price", "decimal", "The cover price."),
                Param("last_printing", "datetime", "The last printing.", required=False),
            ),
            ("factory", "cookbook"),
        ),
    ),
)

ENTRY_TYPES: tuple[EntryType, ...] = (RECIPE, DISH, COOKBOOK)
ENTRY_TYPES_BY_NAME: dict[str, EntryType] = {t.name: t for t in ENTRY_TYPES}

#: Top-level entries linked from the service root: JSON name -> entry type.
TOP_LEVEL_ENTRIES: dict[str, str] = {"featured_cookbook": "cookbook"}
