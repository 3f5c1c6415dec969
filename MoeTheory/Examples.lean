import MoeTheory.Choose
import MoeTheory.Masks
import MoeTheory.UnionBound

/-!
# Concrete sanity checks

Small instances, checked by `decide` (kernel evaluation of the definitions) or by `grind`, that show
the definitions of `MoeTheory.Choose`, `MoeTheory.Masks` and `MoeTheory.UnionBound` mean what their
names say:
* binomial coefficients: `C(5, 2) = 10`, `C(8, 2) = 28`, a row sum of Pascal's triangle, and
  instances of `choose_le_pow` and `choose_symm`;
* masks: the three masks of `C(3, 2)` listed explicitly, the `28` masks of `C(8, 2)` (the setting
  `T = 8`, `k = 2` of common MoE layers), membership and non-membership;
* top-k routing on concrete scores, including a tie and rational scores;
* a uniform four-point probability space where the union bound is strict for overlapping events
  and an equality for disjoint ones.
-/

namespace MoeTheory

example : choose 5 2 = 10 := by decide
example : choose 8 2 = 28 := by decide
example : choose 10 3 = 120 := by decide
example : choose 3 5 = 0 := by decide
example : ((List.range 6).map (choose 5)).sum = 32 := by decide
example : choose 8 2 ≤ 8 ^ 2 := choose_le_pow 8 2
example : choose 7 (7 - 2) = choose 7 2 := choose_symm (by decide)
example : choose 4 2 * factorial 2 * factorial 2 = factorial 4 := by decide

/-- The masks over three experts with two active, in enumeration order. -/
example : masks 3 2 = [[true, true, false], [true, false, true], [false, true, true]] := by decide

/-- `T = 8` experts, top-2 routing: `28` masks, computed by running the enumeration. -/
example : (masks 8 2).length = 28 := by decide

/-- The same count from the general theorem `length_masks`. -/
example : (masks 8 2).length = 28 := by rw [length_masks]; decide

example : (allMasks 8 2).length = 28 := by rw [length_allMasks]; decide
example : [true, false, true] ∈ masks 3 2 := by decide
example : [true, true, true] ∉ masks 3 2 := by decide
example : [true, false] ∉ masks 3 1 := by decide
example : (masks 5 2).Nodup := by decide
example : allMasks 2 1 = [⟨[true, false], by decide⟩, ⟨[false, true], by decide⟩] := by decide

/-- Scores of eight experts. -/
def exampleScores : Nat → Rat := fun i => [3, 1, 4, 1, 5, 9, 2, 6].getD i 0

/-- The three best experts are `5` (score 9), `7` (score 6) and `4` (score 5), best first. -/
example : selectedExperts 8 3 exampleScores = [5, 7, 4] := by decide
example : topK 8 3 exampleScores = [false, false, false, false, true, true, false, true] := by
  decide

/-- Scores with a tie: experts `1` and `2` both score `2`. -/
def tiedScores : Nat → Rat := fun i => [1, 2, 2, 0].getD i 0

/-- Top-1 breaks the tie towards the smaller index. -/
example : topK 4 1 tiedScores = [false, true, false, false] := by decide
example : topK 4 2 tiedScores = [false, true, true, false] := by decide
example : topK 4 0 tiedScores = [false, false, false, false] := by decide
example : topK 4 4 tiedScores = [true, true, true, true] := by decide

/-- Rational scores (evaluated by the kernel, which computes the `gcd` normalizations). -/
def fractionalScores : Nat → Rat := fun i => [-1/2, 3/4, 1/3].getD i 0

example : topK 3 2 fractionalScores = [false, true, true] := by decide +kernel

/-- A router on inputs `x : Nat` scoring expert `i` by `x * i`: the top-2 mask over three experts
picks the last two. -/
example : (topKRouter (X := Nat) (T := 3) (k := 2) (by decide) (fun x i => (x * i : Nat)) 5).val =
    [false, true, true] := by decide

/-- The uniform distribution on `{0, 1, 2, 3}`. -/
def uniformFour : FinProbSpace Nat where
  outcomes := [0, 1, 2, 3]
  weight := fun _ => 1 / 4
  weight_nonneg := by intro _ _; grind
  sum_weight := by simp; grind

example : uniformFour.prob (fun ω => ω < 2) = 1 / 2 := by
  simp [FinProbSpace.prob, uniformFour]; grind

/-- Events `{i, i + 1}` for `i = 0, 1`. -/
abbrev window (i ω : Nat) : Prop := ω = i ∨ ω = i + 1

/-- Overlapping events: their union `{0, 1, 2}` has probability `3/4`, ... -/
example : uniformFour.prob (fun ω => ∃ i ∈ [(0 : Nat), 1], window i ω) = 3 / 4 := by
  simp [FinProbSpace.prob, uniformFour]; grind

/-- ... while the union bound, with each event of probability `1/2`, gives `2 * (1/2) = 1`. -/
example : uniformFour.prob (fun ω => ∃ i ∈ [(0 : Nat), 1], window i ω) ≤ 2 * (1 / 2) :=
  uniformFour.union_bound_routing_patterns [0, 1] window 2 (1 / 2) (by decide) (by grind)
    (by
      intro i hi
      simp only [List.mem_cons, List.not_mem_nil, or_false] at hi
      rcases hi with rfl | rfl <;> simp [FinProbSpace.prob, uniformFour] <;> grind)

/-- Disjoint singleton events: the union bound `3 * (1/4)` is attained. -/
example : uniformFour.prob (fun ω => ∃ i ∈ [(0 : Nat), 1, 2], ω = i) = 3 * (1 / 4) := by
  simp [FinProbSpace.prob, uniformFour]; grind

end MoeTheory
