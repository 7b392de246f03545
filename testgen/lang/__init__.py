"""Language rules: detection, Korean particles, English phrasing, and words that mark generic headings."""

from __future__ import annotations

#: Headings that name a section, not a thing: never used as the subject of a fact.
GENERIC_HEADINGS = frozenset(
    """summary overview details detail specifications specification specs pricing price prices features
    feature terms term renewal support about introduction background history timeline notes note contact
    contacts faq faqs key facts information info general description profile career history experience
    education skills responsibilities highlights performance compensation benefits policy policies
    overview culture values mission vision team teams organization organisation structure products product
    services service clients client customers contracts contract agreement scope payment schedule
    conditions condition appendix references reference glossary metrics results status roadmap
    company corporate other hr annual
    개요 요약 주요 정보 상세 소개 연혁 경력 이력 학력 일정 요금 가격 조건 계약 규정 정책 특징 기능 문의
    참고 비고 현황 구성 조직 성과 평가 보상 내역 담당 세부 사항 기본 회사 상품 직원 목차
    지점 부서 인원 안내 목록""".split()
)
