export const lensHref = (lens, date) => (date ? `?view=${lens}&date=${date}` : `?view=${lens}`);
/** The lens that best shows one day in detail, if the page allows one. */
export function dayLens(lenses) {
    if (lenses.includes("week"))
        return "week";
    if (lenses.includes("schedule"))
        return "schedule";
    return null;
}
//# sourceMappingURL=links.js.map