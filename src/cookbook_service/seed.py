"""The data the service starts with, and the facts about it tests rely on.

Names contain spaces, apostrophes and non-ASCII on purpose. Exactly one
recipe is private. Tests import these constants instead of hard-coding them.
"""

from __future__ import annotations

from typing import NamedTuple


class SeedCookbook(NamedTuple):
    name: str
    cuisine: str
    copyright_date: str
    price: str
    last_printing: str | None
    description: str


class SeedRecipe(NamedTuple):
    dish: str
    cookbook: str
    instructions: str
    private: bool


COOKBOOKS: tuple[SeedCookbook, ...] = (
    SeedCookbook(
        "Mastering the Art of French Cooking",
        "Française",
        "1961-10-16T00:00:00+00:00",
        "18.95",
        "2009-01-01T00:00:00+00:00",
        "",
    ),
    SeedCookbook(
        "The Joy of Cooking",
        "General",
        "1995-01-01T00:00:00+00:00",
        "20.00",
        None,
        "The all-purpose cookbook.",
    ),
    SeedCookbook(
        "James Beard's American Cookery",
        "American",
        "1972-01-01T00:00:00+00:00",
        "24.50",
        None,
        "",
    ),
    SeedCookbook(
        "Everyday Greens",
        "Vegetarian",
        "2003-03-01T00:00:00+00:00",
        "15.25",
        None,
        "Home cooking from Greens.",
    ),
    SeedCookbook(
        "Cooking Without Recipes",
        "General",
        "1959-01-01T00:00:00+00:00",
        "9.99",
        None,
        "",
    ),
    SeedCookbook(
        "La Pâtisserie Française",
        "Dessert",
        "1984-05-12T00:00:00+00:00",
        "31.00",
        "2001-09-01T00:00:00+00:00",
        "Gâteaux et tartes.",
    ),
)

DISHES: tuple[str, ...] = (
    "Roast chicken",
    "Baked beans",
    "Foie gras",
    "Crème brûlée",
    "Shepherd's pie",
    "Green salad",
)

RECIPES: tuple[SeedRecipe, ...] = (
    SeedRecipe(
        "Roast chicken",
        "Mastering the Art of French Cooking",
        "You can always judge a chicken's doneness by its colour.",
        False,
    ),
    SeedRecipe("Roast chicken", "The Joy of Cooking", "Roast at 200°C for an hour.", False),
    SeedRecipe(
        "Foie gras", "Mastering the Art of French Cooking", "Season the liver gently.", False
    ),
    SeedRecipe("Baked beans", "James Beard's American Cookery", "Soak beans overnight.", False),
    SeedRecipe("Crème brûlée", "La Pâtisserie Française", "Caramélisez le sucre.", False),
    SeedRecipe("Shepherd's pie", "The Joy of Cooking", "Top with mashed potatoes.", False),
    SeedRecipe("Green salad", "Everyday Greens", "Wash the greens twice.", False),
    SeedRecipe("Baked beans", "The Joy of Cooking", "The secret family recipe.", True),
    SeedRecipe("Roast chicken", "Cooking Without Recipes", "Use what the fridge holds.", False),
)

COOKBOOK_NAMES: tuple[str, ...] = tuple(c.name for c in COOKBOOKS)
#: Recipe ids are their 1-based position in RECIPES.
PRIVATE_RECIPE_IDS: tuple[int, ...] = tuple(i for i, r in enumerate(RECIPES, 1) if r.private)
PRIVATE_RECIPE_ID: int = PRIVATE_RECIPE_IDS[0]
PUBLIC_RECIPE_IDS: tuple[int, ...] = tuple(i for i, r in enumerate(RECIPES, 1) if not r.private)
PUBLIC_RECIPE_COUNT: int = len(PUBLIC_RECIPE_IDS)
TOTAL_RECIPE_COUNT: int = len(RECIPES)
FEATURED_COOKBOOK: str = COOKBOOKS[0].name
#: A cookbook whose cover starts unset (all of them do).
COOKBOOK_WITHOUT_COVER: str = "Everyday Greens"
#: The cookbook that holds the private recipe.
PRIVATE_RECIPE_COOKBOOK: str = RECIPES[PRIVATE_RECIPE_ID - 1].cookbook
