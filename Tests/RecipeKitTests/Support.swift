import Glibc
@testable import RecipeKit
import Testing
import TestSupport

