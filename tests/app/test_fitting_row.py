"""How many columns a row of buttons takes: all side by side while the widest text fits, else even rows."""

from __future__ import annotations

from companion_app.ui.fitting_row import columns_for


def test_buttons_stay_in_one_row_while_the_widest_text_fits() -> None:
    assert columns_for(6, room=788, spacing=4, widest=120) == 6


def test_six_buttons_too_wide_for_one_row_make_two_rows_of_three() -> None:
    # room for five of them: two rows either way, so three and three rather than five and one
    assert columns_for(6, room=788, spacing=4, widest=150) == 3


def test_five_buttons_with_room_for_two_make_three_rows() -> None:
    assert columns_for(5, room=475, spacing=4, widest=230) == 2


def test_a_text_wider_than_the_row_gets_a_row_of_its_own() -> None:
    assert columns_for(3, room=200, spacing=4, widest=500) == 1
    assert columns_for(0, room=200, spacing=4, widest=0) == 1


def test_no_more_columns_than_asked_and_the_rows_even_below_it() -> None:
    assert columns_for(10, room=600, spacing=6, widest=48, most=5) == 5  # ten faces: two rows of five
    assert columns_for(10, room=230, spacing=6, widest=48, most=5) == 4  # room for four: 4, 4 and 2
