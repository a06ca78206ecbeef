// A recipe's test file imports RecipeTesting (and Testing) alone: the
// recipe's own names come with it.
@_exported import RecipeKit
