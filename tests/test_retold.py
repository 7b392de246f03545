"""Pages that tell a fact in words of their own, or say it changed: they join its closure or drop the item."""

from __future__ import annotations

from pathlib import Path

from factories import kb_context

from testgen.categories import get_category
from testgen.categories._common import single_fact_draft
from testgen.closure import Closure
from testgen.synth.context import GenContext
from testgen.validate import Validator

CLUB = {
    "club/committee.md": "# Rowan Vale Bowls Club committee\n\n| Name | Role |\n|---|---|\n"
    "| Maeve Collins | Chair of the Trustees |\n| Owen Pryce | Fixtures Secretary |\n"
    "| Tariq Bell | Groundsman |\n| Zara Lind | Bar Manager |\n",
    "club/newsletter.md": "# Spring newsletter\n\nOur board of trustees, chaired by Maeve Collins, met in March.\n\n"
    "Zara ran the barbecue stall at the open day.\n\nZara Lind joined us in 2019. Green fees change from April.\n",
    "club/minutes-2025-03-04.md": "# Committee meeting, 4 March 2025\n\n- Owen: fixtures list for May by Friday.\n"
    "- Tariq will stand down as groundsman at the end of May.\n",
}


def _verdict(ctx: GenContext, subject: str, attribute: str = "Role") -> tuple[bool, str | None]:
    fact = next(f for f in ctx.facts if f.subject == subject and f.attribute == attribute)
    draft = single_fact_draft(ctx, fact, "direct_fact")
    assert draft is not None, subject
    found = Validator(ctx).validate(draft, get_category("direct_fact"))
    return found.ok, found.reason


def test_a_page_telling_the_value_in_other_words_beside_the_name_drops_the_item(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, CLUB)
    chair = next(f for f in ctx.facts if f.subject == "Maeve Collins" and f.attribute == "Role")
    # "chaired by Maeve Collins" … "trustees": the newsletter tells "Chair of the Trustees", which the closure cannot
    # tie to it
    assert "club/newsletter.md" not in Closure(ctx).of(chair)
    assert Closure(ctx).retold.of(chair).untold({"club/committee.md"}) is not None
    assert _verdict(ctx, "Maeve Collins") == (False, "unclaimed_restatement")


def test_a_page_sharing_a_word_of_the_value_beside_the_first_name_drops_the_item(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, CLUB)
    # "Owen: fixtures list …" may tell his post in other words: source_docs could miss the minutes
    assert _verdict(ctx, "Owen Pryce") == (False, "unclaimed_restatement")


def test_a_line_saying_the_holder_stands_down_drops_the_item(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, CLUB)
    assert _verdict(ctx, "Tariq Bell") == (False, "ambiguous_key")
    tariq = next(f for f in ctx.facts if f.subject == "Tariq Bell")
    changed = Closure(ctx).retold.of(tariq).changed
    assert changed is not None and changed[0] == "club/minutes-2025-03-04.md"


def test_a_word_inside_another_word_or_a_change_in_another_sentence_is_nothing(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, CLUB)
    # "barbecue" is not "bar"; "change from April" is the green fees', a sentence after her name
    assert _verdict(ctx, "Zara Lind") == (True, None)


def test_korean_leave_right_after_the_name_is_a_change_and_a_later_clause_is_not(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "center/staff.md": "# 느티나무복지관 직원 안내\n\n| 이름 | 직위 |\n|---|---|\n"
            "| 한지수 | 평생교육팀장 |\n| 윤도경 | 사무국장 |\n",
            "center/minutes.md": "# 5월 운영회의록\n\n- 한지수 팀장 육아휴직 예정(6월부터).\n"
            "- 윤도경 님은 작년에 예산이 크게 줄었을 때 순환 휴직 계획을 세웠다.\n",
        },
    )

    assert _verdict(ctx, "한지수", "직위") == (False, "ambiguous_key")
    assert _verdict(ctx, "윤도경", "직위") == (True, None)


def test_korean_resigning_a_post_right_after_the_name_is_a_change(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "club/officers.md": "# 한빛클럽 임원진\n\n| 이름 | 직책 |\n|---|---|\n"
            "| 김태호 | 총무 |\n| 박정훈 | 회장 |\n",
            "club/minutes.md": "# 정기총회 회의록\n\n- 김태호 총무가 2월 부산 지사 발령으로 사의 표명.\n"
            "- 박정훈 회장 연임 의결.\n",
        },
    )

    assert _verdict(ctx, "김태호", "직책") == (False, "ambiguous_key")
    assert _verdict(ctx, "박정훈", "직책") == (True, None)


def test_a_row_named_after_its_code_is_looked_for_by_its_name_without_its_kind(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "club/courses.csv": "Code,Course,Tutor,Day\nOB1,Online Banking,Sue Marsh,Tue\n"
            "FH1,Family History,Raj Mehta,Thu\n",
            "club/tutors.md": "# Our tutors\n\n| Tutor | Teaches | Usual day |\n|---|---|---|\n"
            "| Sue Marsh | Online Banking | Tue pm |\n| Raj Mehta | Family History | Thu am |\n",
        },
    )
    tutor = next(f for f in ctx.facts if f.attribute == "Tutor" and f.value == "Sue Marsh")
    assert tutor.subject == "Online Banking Course"  # the course, named with its kind
    assert Closure(ctx).of(tutor) == {"club/courses.csv", "club/tutors.md"}


def test_a_holder_written_as_the_former_one_makes_the_answer_stale(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "center/안내.md": "# 서하동 자치회관 안내\n\n- 자치회관 담당: 박서연 주무관 (내선 213)\n"
            "- 사무보조: 오은지\n",
            "center/명단.md": "# 주민자치위원회 명단\n\n- 자치회관 담당 주무관: 한지훈 (내선 213) ※ 2025.2.3 부임, "
            "前 담당 박서연 주무관\n",
        },
    )
    fact = next(f for f in ctx.facts if f.attribute == "자치회관 담당")
    changed = Closure(ctx).retold.of(fact).changed
    assert changed is not None and changed[0] == "center/명단.md", changed  # 前: she held it before
    helper = next(f for f in ctx.facts if f.attribute == "사무보조")
    assert Closure(ctx).retold.of(helper).changed is None


def test_a_letter_signed_with_the_name_and_title_and_a_rotas_day_after_a_first_name(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "camp/staff.md": "# Staff\n\n| Name | Role |\n|---|---|\n"
            "| Rachel Pengelly | Bookings & Reception Manager |\n"
            "| Dave Hosking | Head Warden |\n| Priya Nair | Assistant Warden |\n",
            "camp/cover email.txt": "Hi all,\n\nPriya covers the wardening in June.\n\nRachel\n"
            "Bookings & Reception Manager\nHollowbrook Farm Camping\n",
            "camp/rota.md": "# Rota\n\n| Week | Warden |\n|---|---|\n| 21/07 | Dave |\n\n"
            "Note: Dave Mon-Thu; Priya Fri-Sun\n",
            "camp/newsletter.md": "# Spring news\n\n- Dave, our head warden, is back in July.\n",
        },
    )
    retold = Closure(ctx).retold
    roles = {f.subject: f for f in ctx.facts if f.attribute == "Role"}
    untold = retold.of(roles["Rachel Pengelly"]).untold({"camp/staff.md"})
    assert untold is not None and untold[0] == "camp/cover email.txt", untold  # signed with her title
    # "Dave Mon-Thu" names no other Dave: the newsletter's "Dave, our head warden" is his title
    untold = retold.of(roles["Dave Hosking"]).untold({"camp/staff.md"})
    assert untold is not None and untold[0] == "camp/newsletter.md", untold


def test_a_notice_on_the_facts_own_page_that_the_holder_leaves_drops_the_item(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "shop/staff.md": "# Staff and contacts\n\n| Name | Role | Note |\n|---|---|---|\n"
            "| Imogen Vance | Branch Manager | leaving - last day 30 April |\n| Pete Garrow | Technician | |\n"
            "| Nell Adair | Bookkeeper | |\n",
            "shop/faq.md": "# FAQ\n\nAsk at the counter for a quote.\n",
            "shop/minutes.md": "# Minutes, 3 June\n\nNell has handed in her notice; her last working day is 30 June.\n",
        },
    )
    assert _verdict(ctx, "Imogen Vance") == (False, "ambiguous_key")
    assert _verdict(ctx, "Nell Adair") == (False, "ambiguous_key")  # "has handed in her notice" in the minutes
    assert _verdict(ctx, "Pete Garrow") == (True, None)


def test_a_page_of_the_organisations_folder_writing_the_label_and_the_figure_drops_the_item(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "cobbler/about.md": "# Lindenbrook Cobblers\n\n- **Resoling**: £45\n- **Heel bar**: Mon to Sat\n",
            "cobbler/faq.md": "# FAQ\n\nAt Lindenbrook Cobblers most jobs take a day.\n\n"
            "Resoling is 45 pounds a pair.\n",
            "cobbler/news.md": "# News from Lindenbrook Cobblers\n\nWe now stock laces.\n",
            "cobbler/history.md": "# Our history\n\nLindenbrook Cobblers opened in 1988.\n",
        },
    )
    resoling = next(f for f in ctx.facts if f.attribute == "Resoling")
    # the organisation is on every page of its folder; the FAQ's line is the label's, with the figure beside it
    untold = Closure(ctx).retold.of(resoling).untold({"cobbler/about.md"})
    assert untold is not None and untold[0] == "cobbler/faq.md"


def test_a_holder_who_left_drops_even_an_address_or_a_number_of_theirs(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "charity/contacts.md": "# About us and contacts\n\n| Name | Role | Email |\n|---|---|---|\n"
            "| Aisha Rahman | Volunteer Coordinator | aisha.rahman@example.org |\n"
            "| Linda Marsh | Operations Manager | linda.marsh@example.org |\n",
            "charity/minutes.md": "# Ops meeting, 12 May\n\n"
            "- Gareth has covered volunteers since Aisha left on 28 March.\n",
        },
    )

    assert _verdict(ctx, "Aisha Rahman", "Email") == (False, "ambiguous_key")
    assert _verdict(ctx, "Linda Marsh", "Email") == (True, None)


def test_a_title_that_reads_like_a_name_has_no_first_name_to_look_for(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "wiki/history.md": "# Version History\n\n| Version | Released |\n|---|---|\n| 1.0 | 26 February 2016 |\n"
            "| Status | Supported |\n",
            "wiki/lore.md": "# Lore\n\nIn that version of the game the slimes are no longer supported by the king.\n",
        },
    )
    # "Version" of "Version History" is no colleague's first name: "version of the game … no longer" is nothing
    for fact in ctx.facts:
        assert Closure(ctx).retold.of(fact).changed is None, fact


def test_a_page_of_the_folder_restating_a_policys_figure_under_its_label_drops_the_item(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "studio/booking-policy.md": "# Booking Policy\n\n- **Deposit**: 30%\n- **Cancellation notice**: 14 days\n"
            "- **Kiln firing**: £6 per shelf\n",
            "studio/faq.md": "# FAQ\n\nAt Hollin Pottery we ask for a deposit of 30% when you book a course.\n",
            "studio/news.md": "# Hollin Pottery news\n\nThe kiln room is being repainted.\n",
            "studio/about.md": "# About Hollin Pottery\n\nWe opened in 2009.\n",
        },
    )
    retold = Closure(ctx).retold
    deposit = next(f for f in ctx.facts if f.attribute == "Deposit")
    notice = next(f for f in ctx.facts if f.attribute == "Cancellation notice")
    firing = next(f for f in ctx.facts if f.attribute == "Kiln firing")
    # the FAQ names neither the policy nor its label whole: "deposit" with the policy's 30% beside it tells the fact
    untold = retold.of(deposit).untold({"studio/booking-policy.md"})
    assert untold is not None and untold[0] == "studio/faq.md"
    # the word of a label without the value's figure beside it tells nothing ("The kiln room is being repainted")
    assert retold.of(notice).untold({"studio/booking-policy.md"}) is None
    assert retold.of(firing).untold({"studio/booking-policy.md"}) is None


def test_a_notice_writing_out_a_rotas_day_of_a_page_about_the_organisation_tells_its_hours(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "shop/wiki.md": "# 한결 테일러 매장 안내\n\n| 요일 | 시간 | 비고 |\n|---|---|---|\n"
            "| 월~금 | 10:00 ~ 19:00 | 점심 12:30~13:30 |\n| 토 | 10:00 ~ 18:00 | 가봉 예약 |\n",
            "shop/minutes.txt": "한결 테일러 직원회의 (2월 17일)\n\n"
            "- 토요일: 3월 8일부터 10:00 ~ 16:00 (기존 18:00까지).\n",
            "shop/faq.md": "# 한결 테일러 자주 묻는 질문\n\n주차는 건물 뒤편에 가능합니다.\n",
        },
    )
    saturday = next(f for f in ctx.facts if f.doc_id == "shop/wiki.md" and f.value == "10:00 ~ 18:00")
    weekdays = next(f for f in ctx.facts if f.doc_id == "shop/wiki.md" and f.value == "10:00 ~ 19:00")
    # "토" of the rota is "토요일" in the minutes, with the old closing time beside it
    untold = Closure(ctx).retold.of(saturday).untold({"shop/wiki.md"})
    assert untold is not None and untold[0] == "shop/minutes.txt"
    assert Closure(ctx).retold.of(weekdays).untold({"shop/wiki.md"}) is None


def test_a_change_past_a_bracketed_note_or_a_postponement_drops_the_item(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "studio/timetable.md": "# Class timetable\n\n| Class | Day | Places |\n|---|---|---|\n"
            "| Intermediate Wheel | Thu | 8 |\n| Glaze Chemistry | Tue | 6 |\n| Teen Throwers | Sat | 10 |\n",
            "studio/newsletter.txt": "April news\n\nIntermediate Wheel (Thursdays, 8 weeks, £260) now has 10 places "
            "instead of 8.\n\nGlaze Chemistry has been postponed to the autumn.\n",
        },
    )
    retold = Closure(ctx).retold
    places = next(f for f in ctx.facts if f.subject == "Intermediate Wheel" and f.attribute == "Places")
    glaze = next(f for f in ctx.facts if f.subject == "Glaze Chemistry" and f.attribute == "Day")
    teens = next(f for f in ctx.facts if f.subject == "Teen Throwers" and f.attribute == "Places")
    # the commas inside the note end no clause: "instead of 8" is the class's
    assert retold.of(places).changed is not None
    assert retold.of(glaze).changed is not None  # postponed: its day may no longer hold
    assert retold.of(teens).changed is None


def test_a_figure_with_another_unit_beside_a_change_is_not_the_values(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "farm/programmes.md": "# 체험 프로그램\n\n| 프로그램 | 소요 시간 | 요금 |\n|---|---|---|\n"
            "| 딸기잼 만들기 | 1시간 30분 | 25,000원 |\n| 딸기 따기 | 2시간 | 15,000원 |\n",
            "farm/notice.txt": "요금 조정 안내\n\n딸기잼 만들기 프로그램 (1팀, 4인까지) 25,000원 → 28,000원\n",
        },
    )
    retold = Closure(ctx).retold
    took = next(f for f in ctx.facts if f.subject.startswith("딸기잼") and f.value == "1시간 30분")
    price = next(f for f in ctx.facts if f.subject.startswith("딸기잼") and f.value == "25,000원")
    # "1팀" is the team the price is for, not the hour it takes; the price itself changed
    assert retold.of(took).changed is None
    assert retold.of(price).changed is not None


def test_a_class_named_with_its_kind_is_found_by_its_name_alone_in_an_faq(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "studio/fees.csv": "과정,수강료(원),재료비(원)\n한식 기초반,240000,80000\n베이킹 기초반,260000,100000\n",
            "studio/faq.md": "# 자주 묻는 질문\n\n- 한식 기초반 4주: 수강료 24만원 + 재료비 8만원\n",
        },
    )
    fee = next(f for f in ctx.facts if f.value == "240000")
    # the table calls it "한식 기초반 과정"; the FAQ writes "한식 기초반" and the fee in 만 units
    assert fee.subject == "한식 기초반 과정"
    assert "studio/faq.md" in Closure(ctx).of(fee)


def test_a_person_given_as_the_value_who_leaves_makes_the_answer_stale(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "shop/about.md": "# 정든떡집 가게 소개\n\n- 배달 담당: 박재훈\n- 포장 담당: 김선영\n",
            "shop/staff.tsv": "이름\t업무\t근무\t비고\n박재훈\t배달(알바)\t08:00~15:00\t★ 2025-08-31 퇴사 (군입대)\n"
            "김선영\t포장\t09:00~18:00\t\n",
        },
    )
    retold = Closure(ctx).retold
    delivery = next(f for f in ctx.facts if f.value == "박재훈" and f.doc_id == "shop/about.md")
    packing = next(f for f in ctx.facts if f.value == "김선영" and f.doc_id == "shop/about.md")
    # "배달 담당은 누구인가요? 박재훈": his own row of the staff list says he left
    changed = retold.of(delivery).changed
    assert changed is not None and changed[0] == "shop/staff.tsv"
    assert retold.of(packing).changed is None


def test_an_item_of_a_duties_list_or_a_titles_initials_beside_the_name_may_restate_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "studio/직원연락처.md": "# 직원 연락처\n\n| 이름 | 직함 | 주 업무 |\n|---|---|---|\n"
            "| 이수민 | 실장 | 증명 촬영, 발주, 출장 보조 |\n| 박진우 | 대표 | 가족 촬영, 견적, 정산 |\n",
            "studio/분담표.md": "# 6월 업무\n\n※ 출장 보조는 이수민 실장 고정.\n",
            "group/roles.md": "# Roles\n\n| Name | Role |\n|---|---|\n| Karen Whitlock | Group Lead Volunteer |\n"
            "| Alan Reid | Treasurer |\n",
            "group/minutes.md": "# Exec minutes\n\nPresent: Karen Whitlock (GLV), Alan Reid.\n",
        },
    )
    retold = Closure(ctx).retold
    duties = {f.subject: f for f in ctx.facts if f.attribute == "주 업무"}
    assert retold.of(duties["이수민"]).untold({"studio/직원연락처.md"}) is not None  # "출장 보조는 이수민 실장"
    assert retold.of(duties["박진우"]).untold({"studio/직원연락처.md"}) is None
    roles = {f.subject: f for f in ctx.facts if f.attribute == "Role"}
    assert retold.of(roles["Karen Whitlock"]).untold({"group/roles.md"}) is not None  # "Karen Whitlock (GLV)"
    assert retold.of(roles["Alan Reid"]).untold({"group/roles.md"}) is None


def test_an_organisations_value_too_common_to_look_for_is_restated_where_its_label_is(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "shed/Members handbook v3.md": "# Welcome to Harrowby Shed — Members' Handbook\n\n| Item | Cost |\n"
            "|---|---|\n| Taster visit | free |\n| Annual membership | £30 |\n",
            "shed/notice.txt": "Harrowby Shed notice\n\nTaster visits ..... still FREE (up to 2)\n",
            "shed/faq.md": "# Harrowby Shed FAQ\n\nDo I need to book? No, just turn up.\n",
            "shed/minutes.txt": "Harrowby Shed trustees\n\nWe agreed the new fees.\n",
        },
    )
    taster = next(f for f in ctx.facts if f.attribute.startswith("Taster visit"))
    untold = Closure(ctx).retold.of(taster).untold({taster.doc_id})
    assert untold is not None and untold[0] == "shed/notice.txt", untold


def test_a_rota_of_the_folder_naming_the_person_may_tell_her_days_otherwise(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "clinic/직원연락처.md": "# 직원 연락처\n\n| 이름 | 직함 | 근무 요일 |\n|---|---|---|\n"
            "| 정하늘 | 간호조무사 | 목, 토 |\n| 박미경 | 실장 | 월~금 |\n",
            "clinic/근무표_2025_04월.tsv": "날짜\t요일\t정하늘(파트)\n04-01\t화\t15:00-20:45\n04-02\t수\t08:50-19:00\n",
        },
    )
    retold = Closure(ctx).retold
    days = {f.subject: f for f in ctx.facts if f.attribute == "근무 요일"}
    untold = retold.of(days["정하늘"]).untold({"clinic/직원연락처.md"})
    assert untold is not None and untold[0] == "clinic/근무표_2025_04월.tsv", untold
    assert retold.of(days["박미경"]).untold({"clinic/직원연락처.md"}) is None  # the rota does not name her


def test_a_short_title_written_beside_the_name_on_another_page_restates_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "cafe/직원.md": "# 직원\n\n| 이름 | 역할 | 연락처 |\n|---|---|---|\n| 윤서진 | 대표 | 010-5567-1024 |\n"
            "| 이수아 | 알바 | 010-2211-3344 |\n",
            "cafe/근무표.md": "# 4월 근무\n\n문의는 대표님(윤서진)께.\n",
        },
    )
    retold = Closure(ctx).retold
    roles = {f.subject: f for f in ctx.facts if f.attribute == "역할"}
    untold = retold.of(roles["윤서진"]).untold({"cafe/직원.md"})
    assert untold is not None and untold[0] == "cafe/근무표.md", untold
    assert retold.of(roles["이수아"]).untold({"cafe/직원.md"}) is None


def test_a_korean_compound_titles_head_beside_the_name_restates_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "shop/직원.md": "# 직원 연락처\n\n| 이름 | 직책 |\n|---|---|\n| 윤서영 | 상담실장 |\n| 장미숙 | 경리 |\n",
            "shop/규정.md": "# 대차 규정\n\n*개정일: 2025.02.03 | 담당: 윤서영 실장*\n\n"
            "대차는 하루 전까지 예약합니다.\n",
        },
    )
    retold = Closure(ctx).retold
    titles = {f.subject: f for f in ctx.facts if f.attribute == "직책"}
    untold = retold.of(titles["윤서영"]).untold({"shop/직원.md"})
    assert untold is not None and untold[0] == "shop/규정.md", untold  # "실장" of "상담실장"
    assert retold.of(titles["장미숙"]).untold({"shop/직원.md"}) is None


def test_every_page_writing_the_title_beside_the_name_is_looked_for(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "studio/강사.md": "# 강사 소개\n\n| 이름 | 직함 | 연락처 |\n|---|---|---|\n"
            "| 서은비 | 원장 | 010-2284-6617 |\n"
            "| 오하늘 | 강사 | 010-3344-5566 |\n",
            "studio/공지.md": "# 7월 공지\n\n숨결 요가원 원장 서은비 드림\n",
            "studio/FAQ.md": "# FAQ\n\n토요일 오전 11시 하타 기초(서은비 원장님)를 추천드려요.\n",
        },
    )
    retold = Closure(ctx).retold
    roles = {f.subject: f for f in ctx.facts if f.attribute == "직함"}
    # the notice is claimed already; the FAQ, written with the honorific, still tells it
    untold = retold.of(roles["서은비"]).untold({"studio/강사.md", "studio/공지.md"})
    assert untold is not None and untold[0] == "studio/FAQ.md", untold
    assert retold.of(roles["서은비"]).untold({"studio/강사.md", "studio/공지.md", "studio/FAQ.md"}) is None


def test_a_titles_initials_or_a_word_of_it_in_brackets_beside_the_name_restate_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "scouts/contacts.md": "# Contacts and roles\n\n| Name | Role | Phone |\n|---|---|---|\n"
            "| Karen Whitlock | Group Lead Volunteer | 01632 960114 |\n| Colin Maddox | Green Ranger | 01632 960115 |\n"
            "| Ellie Marsh | Young Leader | 01632 960116 |\n| Tom Reyes | Treasurer | 01632 960117 |\n"
            "| Ivy Summers | Independent Scrutineer | 01632 960118 |\n| Owen Pryce | Secretary | 01632 960119 |\n"
            "| Tom Elkington | Press Manager | 01632 960120 |\n| Mike O'Donnell | Treasurer | 01632 960121 |\n",
            "scouts/minutes 2025-03-13.txt": "Exec minutes 13 March 2025\n\nPresent: Karen Whitlock (GLV), "
            "Colin Maddox (Green), Tom Reyes, Owen Pryce (Sec), Tom Elkington (Press Mgr).\n"
            "Ivy Summers is away until May.\n",
            "scouts/letter.txt": "Dear parents,\n\nRefunds are handled by Mike O'Donnell, our Treasurer.\n",
            "scouts/programme.tsv": "Week\tBeavers\n1\tJo P + YL Ellie\n2\tJo P\n",
        },
    )
    retold = Closure(ctx).retold
    roles = {f.subject: f for f in ctx.facts if f.attribute == "Role"}
    own = {"scouts/contacts.md"}
    for name, page in [
        ("Karen Whitlock", "scouts/minutes 2025-03-13.txt"),
        ("Colin Maddox", "scouts/minutes 2025-03-13.txt"),
        ("Ellie Marsh", "scouts/programme.tsv"),
        ("Owen Pryce", "scouts/minutes 2025-03-13.txt"),  # a title shortened word by word
        ("Tom Elkington", "scouts/minutes 2025-03-13.txt"),
        ("Mike O'Donnell", "scouts/letter.txt"),
    ]:
        untold = retold.of(roles[name]).untold(own)
        assert untold is not None and untold[0] == page, (name, untold)
    assert retold.of(roles["Tom Reyes"]).untold(own) is None  # named, but not with his title
    assert retold.of(roles["Ivy Summers"]).untold(own) is None  # "is" is no initials: they are written in capitals


def test_a_line_of_the_folder_writing_a_time_of_the_hours_as_the_former_one_changes_them(tmp_path: Path) -> None:
    def changed(email: str) -> tuple[str, str] | None:
        ctx = kb_context(
            tmp_path / str(len(email)),
            {
                "couriers/STAFF CONTACTS.md": "# Staff & contact list\n\n"
                "**Opening hours:** Mon–Fri 07:30–18:30 · Sat 09:00–14:00 · Sun closed\n\n"
                "| Name | Role |\n|---|---|\n| Ravi Patel | Operations |\n| Jo Smith | Office |\n",
                "couriers/email from Ravi - June.txt": f"Hi all,\n\n{email}\n\nRavi\n",
            },
        )
        hours = next(f for f in ctx.facts if f.attribute == "Opening hours")
        return Closure(ctx).retold.of(hours).changed

    moved = changed("Mon–Fri we'll now take jobs until 19:00 (was 18:30) – the theatres asked for it.")
    assert moved is not None and moved[0] == "couriers/email from Ravi - June.txt", moved
    assert changed("Mon–Fri we now take jobs until 19:00 (was 18:00 last year).") is None  # another time
    assert changed("The late shift is 13:00–18:30 as before.") is None  # the time, but not as a former one


def test_a_change_line_whose_new_side_is_the_value_confirms_it(tmp_path: Path) -> None:
    def changed(fee: str) -> tuple[str, str] | None:
        ctx = kb_context(
            tmp_path / fee.replace(",", ""),
            {
                "academy/수강료 안내.md": "# 수강료 안내\n\n| 반 | 월 수강료 |\n|---|---|\n"
                f"| 파이썬 중급 반 | {fee} |\n"
                "| 스크래치 기초 반 | 160,000원 |\n",
                "academy/공지_0214.txt": "수강료 조정 안내\n\n  파이썬 중급 반(주2회)   210,000원  →  220,000원\n"
                "  스크래치 기초 반(주2회) 150,000원  →  160,000원\n",
            },
        )
        fact = next(f for f in ctx.facts if f.subject.startswith("파이썬 중급") and f.attribute == "월 수강료")
        return Closure(ctx).retold.of(fact).changed

    assert changed("220,000원") is None  # the notice's new fee
    stale = changed("210,000원")  # a page left at the old fee
    assert stale is not None and stale[0] == "academy/공지_0214.txt", stale


def test_a_post_holder_who_leaves_is_found_by_the_first_name_the_folder_calls_him(tmp_path: Path) -> None:
    def changed(other: str) -> tuple[str, str] | None:
        ctx = kb_context(
            tmp_path / str(len(other)),
            {
                "space/contacts and roles.md": "# Contacts & Roles\n\n| Area | Lead | Phone |\n|---|---|---|\n"
                "| Laser cutter | Gareth Lowe | 01632 960301 |\n| Textiles | Bee Okonjo | 01632 960302 |\n",
                "space/stewards.md": "# Stewards\n\n| Name | Area | Day |\n|---|---|---|\n"
                "| Gareth Lowe | Laser | Wed |\n| Bee Okonjo | Textiles | Thu |\n",
                "space/committee minutes 2024-12-03.txt": "Committee meeting, 3 December 2024\n\nPresent: "
                "Gareth Lowe, Bee Okonjo, Aisha Rahman\n\n- Gareth is moving to Bristol and will step down at the end "
                f"of December.\n- Aisha will take over as laser lead from January.\n{other}",
            },
        )
        lead = next(f for f in ctx.facts if f.value == "Gareth Lowe" and "Laser" in f.attribute)
        return Closure(ctx).retold.of(lead).changed

    found = changed("")
    assert found is not None and found[0] == "space/committee minutes 2024-12-03.txt", found
    # another Gareth in the folder: the first name alone names neither
    assert changed("- Gareth Price will run the open day.\n") is None


def test_a_staff_member_who_gives_notice_is_stale_but_not_a_colleague_in_another_cell(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "van/Staff handbook.md": "# Staff handbook\n\n| Name | Role | Usual days |\n|---|---|---|\n"
            "| Callum Dyer | Driver / prep | Tue, Wed, Thu |\n| Sophie Ansell | Crew lead | Fri, Sat |\n",
            "van/team meeting notes 2 Apr 2025.txt": "Team meeting, 2 April 2025\n\n1. Staffing\n"
            "(Callum Dyer gave 3 weeks' notice - cheers.) Fatima starts on 6 May.\n",
            "van/Pitch rota April-May 2025.tsv": "Week\tEvening\tNotes\n21/04/2025\tSophie Ansell, Marco\t"
            "Callum Dyer's LAST SHIFT Fri 25/4\n28/04/2025\tSophie Ansell, Fatima\t\n",
        },
    )
    closure = Closure(ctx)
    role = {f.subject: f for f in ctx.facts if f.attribute == "Role"}
    changed = closure.retold.of(role["Callum Dyer"]).changed
    assert changed is not None and changed[1].startswith(("(Callum", "| 21/04")), changed
    # Sophie is named in the row's other cell: the last shift is Callum's
    assert closure.retold.of(role["Sophie Ansell"]).changed is None


def test_any_post_written_beside_the_persons_name_on_another_page_may_restate_hers(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "shop/staff.md": "# Staff\n\n| Name | Role |\n|---|---|\n| Denise Marlow | Owner |\n"
            "| Jodie Fairclough | Attendant |\n| Kwame Asante | Manager |\n",
            "shop/letter to a customer.txt": "Dear Mr Okonjo,\n\nThe proprietor, Mrs Marlow, has read your claim.\n",
            "shop/rota.txt": "Rota\n\n| Day | Open | Close |\n|---|---|---|\n"
            "| Mon | Jodie Fairclough | Kwame (keys) |\n",
            "bakery/직원연락처.md": "# 직원 연락처\n\n| 이름 | 직책 |\n|---|---|\n| 정태식 | 대표 |\n"
            "| 송예린 | 주말 아르바이트 |\n| 구민정 | 사무원 |\n| 박지민 | 제빵 강사 |\n| 남궁하람 | 사무장 |\n",
            "bakery/자주묻는질문.md": "# 자주 묻는 질문\n\n단체 주문은 정태식 사장님께 문의해 주세요.\n\n"
            "현금영수증은 사무실 구민정 선생님께 말씀해 주세요.\n\n환불은 행정실 하람 사무장이 처리합니다.\n",
            "bakery/회의록.txt": "회의록\n\n참석: 박지민 선생님, 송예린(주말 알바), 구민정\n",
            "travel/people/박하늘.md": "# 박하늘\n\n## 경력\n\n| 기간 | 회사 | 역할 |\n|---|---|---|\n"
            "| 1996년~2001년 | 동방관광 | 일본 단체여행 인솔 |\n| 2008년~현재 | 하늘여행 | 대표이사 |\n",
            "travel/지점.md": "# 지점 안내\n\n- 대표이사: 박하늘 (이사회에 보고)\n",
        },
    )
    retold = Closure(ctx).retold
    roles = {f.subject: f for f in ctx.facts if f.attribute in ("Role", "직책")}
    # "The proprietor, Mrs Marlow": another word for her post, by her surname and a courtesy title
    assert retold.of(roles["Denise Marlow"]).untold({"shop/staff.md"}) == (
        "shop/letter to a customer.txt",
        "The proprietor, Mrs Marlow, has read your claim.",
    )
    # a rota's cells name Jodie and Kwame with no post
    assert retold.of(roles["Jodie Fairclough"]).untold({"shop/staff.md"}) is None
    assert retold.of(roles["Kwame Asante"]).untold({"shop/staff.md"}) is None
    # "정태식 사장님" of "대표", "송예린(주말 알바)" of "주말 아르바이트", "박지민 선생님" of a teacher's post
    assert retold.of(roles["정태식"]).untold({"bakery/직원연락처.md"}) is not None
    assert retold.of(roles["송예린"]).untold({"bakery/직원연락처.md"}) is not None
    assert retold.of(roles["박지민"]).untold({"bakery/직원연락처.md"}) is not None
    assert (
        retold.of(roles["남궁하람"]).untold({"bakery/직원연락처.md"}) is not None
    )  # "하람 사무장": a compound surname
    # "구민정 선생님" only honours the office clerk; "주말 알바), 구민정" is 송예린's post, not hers
    assert retold.of(roles["구민정"]).untold({"bakery/직원연락처.md"}) is None
    # today's post beside her name tells her post of 2008 to now, not the one she held in 1996–2001
    career = {f.qualifier: f for f in ctx.facts if f.subject == "박하늘" and f.attribute == "역할"}
    assert retold.of(career["2008년~현재"]).untold({"travel/people/박하늘.md"}) is not None
    assert retold.of(career["1996년~2001년"]).untold({"travel/people/박하늘.md"}) is None


def test_the_same_items_row_in_another_price_table_of_the_folder_may_restate_or_reprice_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "cafe/Menu & Prices (Jan 2024).md": "# Millbrook Café — Menu & Prices\n\n| Item | Price |\n|---|---|\n"
            "| Canned drinks | £1.20 |\n| Slice of homemade cake | £2.00 |\n| Soup of the day | £3.50 |\n"
            "| Leather apron | £12.00 |\n",
            "cafe/till prices v3.csv": "Category,Item,Old price (GBP),New price (GBP) from 01/03/25\n"
            "Cold drinks,Canned drink,1.20,1.30\nCakes,Slice of cake,2.00,2.00\n",
            "cafe/volunteer rota.csv": "Day,Shift,Volunteers\nMon,Soup of the day,3\n",
            "cafe/shop.md": "# Shop\n\n| Bundle | Contents | Price |\n|---|---|---|\n"
            "| Gift set | Cookbook + Leather apron + Tea towel | £25.00 |\n",
        },
    )
    retold = Closure(ctx).retold
    prices = {f.attribute: f for f in ctx.facts if f.doc_id.endswith("(Jan 2024).md")}
    # "Canned drink" (a plural apart) and "Slice of cake" (a word fewer), under a header saying "price"
    for item in ("Canned drinks Price", "Slice of homemade cake Price"):
        untold = retold.of(prices[item]).untold({prices[item].doc_id})
        assert untold is not None and untold[0] == "cafe/till prices v3.csv", item
    # the rota names the soup with a count under no price; the gift set lists the apron among other things
    assert retold.of(prices["Soup of the day Price"]).untold({prices["Soup of the day Price"].doc_id}) is None
    assert retold.of(prices["Leather apron Price"]).untold({prices["Leather apron Price"].doc_id}) is None


def test_a_class_that_ran_for_the_last_time_makes_its_price_stale(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "teahouse/영어 다도 클래스.md": "# 영어 다도 클래스\n\n- 가격: 1인 40,000원\n"
            "- 시간: 매월 첫째 일요일 11:00\n",
            "teahouse/세작 녹차.md": "# 세작 녹차\n\n- 가격: 8,000원\n- 산지: 하동\n",
            "teahouse/가격조정 공지.txt": "가격 조정 안내\n\n"
            "매월 첫째 일요일 영어 다도 클래스는 2월을 끝으로 운영을 마쳤습니다.\n"
            "세작 녹차는 그대로 8,000원입니다.\n",
            "club/news.md": "# Club news\n\n| Session | Price |\n|---|---|\n| Cardio Tennis | £6 |\n"
            "| Rally Ball | £5 |\n",
            "club/newsletter.txt": "Spring newsletter\n\nCardio Tennis has ended for the winter.\n",
        },
    )
    retold = Closure(ctx).retold
    prices = {f.subject: f for f in ctx.facts if f.attribute in ("가격", "Price")}
    assert {"영어 다도 클래스", "세작 녹차", "Cardio Tennis"} <= set(prices), prices
    ended = retold.of(prices["영어 다도 클래스"]).changed
    assert ended is not None and ended[0] == "teahouse/가격조정 공지.txt"
    assert retold.of(prices["세작 녹차"]).changed is None
    assert retold.of(prices["Cardio Tennis"]).changed is not None
    assert retold.of(prices["Rally Ball"]).changed is None


def test_a_posts_holder_named_beside_a_word_of_the_post_elsewhere_may_restate_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "club/Committee and Contacts.md": "# Ashcombe Tennis Club committee\n\n"
            "- **Membership Secretary**: Priya Nandakumar\n- **Club Welfare Officer**: Helen Marsh\n"
            "- **Courts Officer**: Graham Pell\n",
            "club/minutes 2024-11-06.txt": "Committee minutes\n\n"
            "Present: Priya Nandakumar (Membership), Graham Pell.\n",
            "club/Junior Handbook.md": "# Junior handbook\n\nOur Club Welfare Officer is Helen Marsh.\n",
        },
    )
    retold = Closure(ctx).retold
    posts = {f.attribute: f for f in ctx.facts if f.doc_id == "club/Committee and Contacts.md"}
    for post, page in (
        ("Membership Secretary", "club/minutes 2024-11-06.txt"),
        ("Club Welfare Officer", "club/Junior Handbook.md"),
    ):
        untold = retold.of(posts[post]).untold({posts[post].doc_id})
        assert untold is not None and untold[0] == page, post
    # Graham is named in the minutes with no word of his post
    assert retold.of(posts["Courts Officer"]).untold({posts["Courts Officer"].doc_id}) is None


def test_a_notices_space_aligned_price_row_or_a_titled_price_sheet_may_reprice_an_item(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "clinic/Price list 2024-25.csv": "Treatment,Minutes,Price (GBP)\nRoutine chiropody treatment,30,£44.00\n"
            "Nail surgery,60,£295.00\n",
            "clinic/PRICE CHANGES from 1st April 2025.txt": "FERNLEIGH FOOT CLINIC\n\n"
            "                                 Until 31 March 2025    From 1 April 2025\n"
            "  Routine treatment (30 mins)    £44                    £47\n",
            "barbers/price list 2024.csv": "Service,Price,Time allowed (mins)\nGents haircut,£18.00,30\n"
            "Cut & beard trim,£26.00,45\n",
            "barbers/PRICES from 3rd March 2025.tsv": "KESTREL STREET BARBERS\tNEW PRICES\tfrom 3rd March 2025\n"
            "Service\tOld price\tNew price\nCut + beard trim\t£26\t£28\n",
        },
    )
    retold = Closure(ctx).retold
    for doc_id, item, page in (
        (
            "clinic/Price list 2024-25.csv",
            "Routine chiropody treatment",
            "clinic/PRICE CHANGES from 1st April 2025.txt",
        ),
        ("barbers/price list 2024.csv", "Cut & beard trim", "barbers/PRICES from 3rd March 2025.tsv"),
    ):
        price = next(f for f in ctx.facts if f.doc_id == doc_id and f.attribute.startswith(item))
        untold = retold.of(price).untold({doc_id})
        assert untold is not None and untold[0] == page, item
    surgery = next(f for f in ctx.facts if f.attribute.startswith("Nail surgery"))
    assert retold.of(surgery).untold({surgery.doc_id}) is None


def test_every_other_price_sheet_with_the_items_row_is_told_not_only_the_first(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "cafe/a menu 2024.md": "# Café menu 2024\n\n| Item | Price |\n|---|---|\n| Canned drinks | £1.20 |\n"
            "| Bottled water | £1.00 |\n",
            "cafe/b till prices.md": "# Till prices\n\n| Item | Old price | New price |\n|---|---|---|\n"
            "| Canned drink | 1.20 | 1.30 |\n",
            "cafe/c price board.md": "# Price board\n\n| Item | Price |\n|---|---|\n| Canned drink | 1.30 |\n",
        },
    )
    cans = next(f for f in ctx.facts if f.doc_id == "cafe/a menu 2024.md" and f.attribute.startswith("Canned"))
    retold = Closure(ctx).retold.of(cans)
    # the till prices are in source_docs: the price board still tells the item again
    assert retold.untold({cans.doc_id, "cafe/b till prices.md"}) == ("cafe/c price board.md", "| Canned drink | 1.30 |")
